;;; eglot-e2e.el --- drive jitls through Emacs 28 + eglot 1.9 in batch mode -*- lexical-binding: t -*-

;; Run by TestEglotEndToEnd (cmd/jitls/eglot_test.go) as
;;   emacs --batch --no-init-file -l eglot-e2e.el
;; in the sample module, with JITLS_BIN, JITLS_FILE, JITLS_LOG and
;; JITLS_RESULT in the environment. It opens JITLS_FILE in go-mode, starts
;; jitls through eglot-server-programs (the configuration docs/editors.md
;; shows), and goes through diagnostics, the quick fix, hover, the lenses'
;; commands and shutdown, writing what it saw to JITLS_RESULT as JSON.
;; --no-init-file rather than -Q: Debian's site-start puts the elpa-*
;; packages (eglot, go-mode) on the load path.
(require 'package)
(package-initialize)
(require 'go-mode)
(require 'eglot)
(require 'json)
(require 'flymake)

;; Previews build the package's tests: far longer than jsonrpc's 10 s
;; default on a loaded machine.
(setq jsonrpc-default-request-timeout 300)

(defvar jitls-e2e-result nil "What the test saw, written as JSON at the end.")
(defun jitls-e2e-put (key value) (push (cons key value) jitls-e2e-result))
(defun jitls-e2e-wait (pred timeout)
  "Process output until PRED returns non-nil or TIMEOUT seconds pass."
  (let ((deadline (+ (float-time) timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    v))
(defun jitls-e2e-diags (code)
  "The flymake diagnostics of the current buffer from jitls's analyzer CODE."
  (cl-remove-if-not (lambda (d) (string-prefix-p (format "jitls [%s]" code) (flymake-diagnostic-text d)))
                    (flymake-diagnostics)))

(condition-case err
    (let ((jitls (getenv "JITLS_BIN")) (file (getenv "JITLS_FILE")))
      (setq eglot-server-programs
            `((go-mode ,jitls "-logfile" ,(getenv "JITLS_LOG") :initializationOptions (:allowCodeExecution t))))
      (find-file file)
      (apply #'eglot (eglot--guess-contact))
      (let ((server (jitls-e2e-wait #'eglot-current-server 60)))
        (jitls-e2e-put 'connected (and server t))
        (flymake-start)
        ;; Diagnostics: the tracedbool finding on ReluBad, with the line
        ;; that says why it is traced folded into the message (eglot does
        ;; not announce relatedInformation).
        (let ((d (car (jitls-e2e-wait (lambda () (jitls-e2e-diags "tracedbool")) 120))))
          (jitls-e2e-put 'diagnostic (and d (flymake-diagnostic-text d)))
          (when d
            (jitls-e2e-put 'line (line-number-at-pos (flymake-diagnostic-beg d)))
            ;; Quick fix: the preferred code action, applied by eglot's own
            ;; workspace-edit code (what M-x eglot-code-actions does).
            (let* ((actions (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
                   (preferred (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
              (jitls-e2e-put 'actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
              (when preferred
                (eglot--apply-workspace-edit (plist-get preferred :edit))
                (eglot--signal-textDocument/didChange)
                (jitls-e2e-put 'buffer (buffer-substring-no-properties (point-min) (point-max)))
                (jitls-e2e-put 'cleared
                               (and (jitls-e2e-wait (lambda () (null (jitls-e2e-diags "tracedbool"))) 120) t))))))
        ;; Hover on ReluWhere, as eldoc would ask for it.
        (goto-char (point-min))
        (search-forward "func ReluWhere")
        (backward-char 3)
        (let ((hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams) :timeout 300)))
          (jitls-e2e-put 'hover_kind (plist-get (plist-get hover :contents) :kind))
          (jitls-e2e-put 'hover (plist-get (plist-get hover :contents) :value)))
        ;; Lenses: eglot 1.9 has no lens UI; ask for them and run the jaxpr
        ;; lens's command with eglot-execute-command.
        (let* ((lenses (jsonrpc-request server :textDocument/codeLens `(:textDocument ,(eglot--TextDocumentIdentifier))))
               (jaxpr (cl-find-if (lambda (l) (equal (plist-get (plist-get l :command) :command) "jitls.showJaxpr")) lenses)))
          (jitls-e2e-put 'lenses (length lenses))
          (when jaxpr
            (let* ((cmd (plist-get jaxpr :command))
                   (res (eglot-execute-command server (intern (plist-get cmd :command)) (plist-get cmd :arguments))))
              (jitls-e2e-put 'lens_function (plist-get res :function))
              (jitls-e2e-put 'lens_jaxpr (plist-get res :jaxpr)))))
        ;; Shutdown: the shutdown request and exit notification that
        ;; M-x eglot-shutdown sends, then the server's exit status (eglot
        ;; 1.9's eglot-shutdown deletes the process right after exit, which
        ;; would hide it).
        (let ((proc (jsonrpc--process server)))
          (jitls-e2e-put 'shutdown (jsonrpc-request server :shutdown nil :timeout 30))
          (jsonrpc-notify server :exit nil)
          (jitls-e2e-wait (lambda () (not (process-live-p proc))) 30)
          (jitls-e2e-put 'exit_status (if (process-live-p proc) -1 (process-exit-status proc))))))
  (error (jitls-e2e-put 'lisp_error (error-message-string err))))

(with-temp-file (getenv "JITLS_RESULT")
  (insert (json-encode jitls-e2e-result)))
(kill-emacs 0)
