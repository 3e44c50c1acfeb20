;; The planner's behavior: tools that reach the session's tasks notebook through the `tasks`
;; binding (call/method is the only way in), and a nudge at the end of a round while tasks
;; stay open (an activating note asks for another round; at most `maxNudges` per turn).

(validate/configuration
  (lambda (c) (or (not (dict-has? c "maxNudges")) (integer? (dict-ref c "maxNudges")))))

(define max-nudges (dict-get (configuration) "maxNudges" 3))
(define nudges 0)

(define/tool 'plan_add
  :kind 'tool
  :description "Add a task to the plan (one step you intend to take). Returns the task's id."
  :input (z/object (dict :text (z/describe z/string "the step, in one sentence")))
  :handler (lambda (input)
             (string-append "task "
                            (number->string (call/method 'tasks 'add-task (dict :text (:text input))))
                            " added")))

(define/tool 'plan_done
  :kind 'tool
  :description "Mark a task of the plan as done."
  :input (z/object (dict :id (z/describe z/integer "the task's id")))
  :handler (lambda (input) (call/method 'tasks 'complete-task (dict :id (:id input)))))

(define (titles tasks)
  (let loop ((ts (vector->list tasks)) (out ""))
    (if (null? ts)
        out
        (loop (cdr ts)
              (string-append out (if (string=? out "") "" "; ")
                             "#" (number->string (:id (car ts))) " " (:text (car ts)))))))

(hook/turn :id 'reset :pre (lambda (record) (set! nudges 0)))

(hook/round :id 'nudge
  :post (lambda (record result)
          (if (equal? (:stop record) "end")
              (let ((open (call/method 'tasks 'open-tasks (dict))))
                (if (and (> (vector-length open) 0) (< nudges max-nudges))
                    (begin
                      (set! nudges (+ nudges 1))
                      (self/notify 'activating
                                   (string-append "Open tasks remain: " (titles open)
                                                  ". Finish them (plan_done) or say why not."))))))))
