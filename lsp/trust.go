package lsp

// untrustedHelp says how to enable code execution.
const untrustedHelp = "Previews and compile-cost measurements build and run your code, so jitls only runs them in a trusted workspace. " +
	"Enable them by starting jitls with initializationOptions {\"allowCodeExecution\": true} " +
	"(VS Code: trust the workspace; Neovim: init_options = { allowCodeExecution = true })."

// trusted reports whether the user allowed code execution (previews and
// measurements build and run the user's code).
func (s *Server) trusted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.AllowCodeExecution
}
