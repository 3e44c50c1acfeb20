;; /plan — the tasks of the session's plan; pick an open task to mark it done, or add one.
(define notebook (rpc 'plugin/method :method "get" :scope "session"))

(define (mark t)
  (cond ((equal? (:status t) "done") "✓")
        ((equal? (:status t) "limbo") "…")
        (else "○")))

(define (task-row t)
  (harness/row (string-append (mark t) " #" (number->string (:id t)) " " (:text t))
               (harness/action 'plugin/method
                               :params (dict :plugin "planner" :method "complete-task"
                                             :scope "session"
                                             :args (string-append "{\"id\":" (number->string (:id t)) "}")))
               :detail (:status t)))

(if (not (:ok notebook))
    (harness/choice :title (string-append "Plan (unavailable: " (:error notebook) ")") :rows '())
    (let ((tasks (vector->list (:tasks (:result notebook)))))
      (harness/choice
        :title (string-append "Plan — " (number->string (length tasks)) " task(s)")
        :rows (append (map task-row tasks)
                      (list (harness/row "Add a task"
                                         (harness/action 'plugin/method
                                                         :params (dict :plugin "planner"
                                                                       :method "add-task"
                                                                       :scope "session"
                                                                       :args "{}"
                                                                       :field "text"))
                                         :detail (if (string=? (composer) "") "type the task" (composer))))))))
