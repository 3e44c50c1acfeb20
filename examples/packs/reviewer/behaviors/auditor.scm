;; The auditor may read only source files.
(guard/read :id 'sources-only
  :match "**"
  :middleware (lambda (raw invoke)
                (if (string-contains (:path raw) ".env")
                    (refuse "the auditor does not read environment files")
                    (invoke raw))))
