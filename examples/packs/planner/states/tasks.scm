;; The tasks notebook of a session: a goal, its tasks and a verdict.
;; Every change is an action in the session's log; rewinding the session rewinds the notebook.
;; `limbo` (parking a task) and `verdict` (accepting the work) are host-only: no method — not
;; even one the agent or a command calls — can propose them; the person at the terminal can
;; (hs packs propose planner '{"type":"verdict","text":"accepted"}').

(define (with-status tasks id status)
  (vector-map (lambda (t) (if (= (:id t) id) (dict-set t :status status) t)) tasks))

(define (open-tasks state)
  (let loop ((ts (vector->list (:tasks state))) (out '()))
    (cond ((null? ts) (list->vector (reverse out)))
          ((equal? (:status (car ts)) "open") (loop (cdr ts) (cons (car ts) out)))
          (else (loop (cdr ts) out)))))

(define (find-task state id)
  (let loop ((ts (vector->list (:tasks state))))
    (cond ((null? ts) #f)
          ((= (:id (car ts)) id) (car ts))
          (else (loop (cdr ts))))))

(define/reducer
  :initial (lambda () (dict :goal "" :tasks (vector) :next 1 :verdict ""))
  :reduce (lambda (state action)
            (let ((type (:type action)))
              (cond ((equal? type "set-goal") (dict-set state :goal (:text action) :verdict ""))
                    ((equal? type "add-task")
                     (dict-set state
                               :tasks (vector-append (:tasks state)
                                                     (vector (dict :id (:next state)
                                                                   :text (:text action)
                                                                   :status "open")))
                               :next (+ (:next state) 1)))
                    ((equal? type "complete-task")
                     (dict-set state :tasks (with-status (:tasks state) (:id action) "done")))
                    ((equal? type "limbo")
                     (dict-set state :tasks (with-status (:tasks state) (:id action) "limbo")))
                    ((equal? type "verdict") (dict-set state :verdict (:text action)))
                    (else state))))
  :host-only (lambda (action) (if (member (:type action) '("limbo" "verdict")) #t #f)))

(define/method 'get
  :kind 'query
  :input (z/object (dict))
  :output z/any
  :handler (lambda (input state) state))

(define/method 'open-tasks
  :kind 'query
  :input (z/object (dict))
  :output (z/array (z/object (dict :id z/integer :text z/string :status z/string)))
  :handler (lambda (input state) (open-tasks state)))

(define/method 'set-goal
  :kind 'command
  :input (z/object (dict :text z/string))
  :output z/string
  :handler (lambda (input state)
             (state/propose (dict :type "set-goal" :text (:text input)))
             (string-append "goal: " (:text input))))

(define/method 'add-task
  :kind 'command
  :input (z/object (dict :text z/string))
  :output z/integer
  :handler (lambda (input state)
             (state/propose (dict :type "add-task" :text (:text input)))
             (:next state)))

(define/method 'complete-task
  :kind 'command
  :input (z/object (dict :id z/integer))
  :output z/string
  :handler (lambda (input state)
             (let ((task (find-task state (:id input))))
               (if (not task) (error "no such task" (:id input)))
               (state/propose (dict :type "complete-task" :id (:id input)))
               (string-append "done: " (:text task)))))

(define/method 'park-task
  :kind 'command
  :input (z/object (dict :id z/integer))
  :output z/string
  :handler (lambda (input state)
             ;; host-only: this proposal is rejected (only the host parks a task)
             (state/propose (dict :type "limbo" :id (:id input)))
             "parked"))
