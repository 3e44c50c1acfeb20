;; The reviewer's behavior: secrets never leave the shell, every shell result is noted in the log.

(validate/configuration
  (lambda (c) (and (dict-has? c "secretPrefixes") (vector? (dict-ref c "secretPrefixes")))))

(define prefixes (vector->list (dict-ref (configuration) "secretPrefixes")))

;; True when `word` starts with one of the configured prefixes.
(define (secret? word)
  (let loop ((ps prefixes))
    (cond ((null? ps) #f)
          ((and (>= (string-length word) (string-length (car ps)))
                (string=? (substring word 0 (string-length (car ps))) (car ps))) #t)
          (else (loop (cdr ps))))))

;; Replaces every secret-looking word of `text` (words end at whitespace, quotes and `=`).
(define (redact text)
  (let ((out (open-output-string)))
    (let loop ((i 0) (start 0))
      (define (flush end)
        (let ((word (substring text start end)))
          (write-string (if (secret? word) "[redacted]" word) out)))
      (cond ((= i (string-length text))
             (flush i)
             (get-output-string out))
            ((memv (string-ref text i) '(#\space #\newline #\tab #\" #\' #\=))
             (flush i)
             (write-char (string-ref text i) out)
             (loop (+ i 1) (+ i 1)))
            (else (loop (+ i 1) start))))))

(guard/shell :id 'redact-secrets
  :capabilities 'replace
  :contract 'redaction
  :middleware (lambda (raw invoke)
                (let ((result (invoke raw)))
                  (dict-set result :text (redact (:text result))))))

(guard/shell :id 'no-force-push
  :match "git push*"
  :middleware (lambda (raw invoke)
                (if (string-contains (:command raw) "--force")
                    (refuse "the reviewer never force-pushes")
                    (invoke raw))))

(define shell-calls 0)

(hook/shell :id 'count
  :post (lambda (command result)
          (set! shell-calls (+ shell-calls 1))
          (display (string-append "shell call " (number->string shell-calls) ": "
                                  (:command command) "\n"))))

(define/tool 'review_note
  :kind 'tool
  :description "Record a review finding (one sentence)."
  :input (z/object (dict :finding z/string))
  :handler (lambda (input) (string-append "noted: " (:finding input))))
