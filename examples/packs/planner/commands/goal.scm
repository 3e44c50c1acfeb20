;; /goal — the session's goal. `/goal <text>` then "Set the goal" uses the typed text.
(define notebook (rpc 'plugin/method :method "get" :scope "session"))

(define title
  (cond ((not (:ok notebook)) (string-append "Goal (unavailable: " (:error notebook) ")"))
        ((string=? (:goal (:result notebook)) "") "No goal yet")
        (else (string-append "Goal: " (:goal (:result notebook))
                             (if (string=? (:verdict (:result notebook)) "")
                                 ""
                                 (string-append " — verdict: " (:verdict (:result notebook))))))))

(harness/choice
  :title title
  :rows (list
          (harness/row "Set the goal"
                       (harness/action 'plugin/method
                                       :params (dict :plugin "planner" :method "set-goal"
                                                     :scope "session" :args "{}" :field "text"))
                       :detail (if (string=? (composer) "") "type the goal" (composer)))
          (harness/row "Ask the agent to plan it"
                       (harness/action 'message
                                       :params (dict :text "Plan the goal: add one task per step with plan_add.")))))
