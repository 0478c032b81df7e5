package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitlint/jitlint/lsp/lsptest"
)

// e2eScript drives Neovim's built-in LSP client: it starts jitls on the
// sample module, waits for the tracedbool diagnostic on ReluBad, asks for
// code actions and applies the quick fix with Neovim's own workspace-edit
// code, waits for the diagnostic to go away, hovers over ReluWhere and
// writes what it saw as JSON. It works with Neovim 0.7 (Debian bookworm)
// and later.
const e2eScript = `
local jitls, file, out = os.getenv('JITLS_BIN'), os.getenv('JITLS_FILE'), os.getenv('JITLS_RESULT')
local res = {}
local function finish()
  local f = io.open(out, 'w'); f:write(vim.fn.json_encode(res)); f:close()
  vim.cmd('qa!')
end
local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'jitls', cmd = { jitls, '-logfile', os.getenv('JITLS_LOG') }, root_dir = vim.fn.fnamemodify(file, ':h:h'),
    init_options = { allowCodeExecution = true },
  })
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  local function jitls_diags()
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.source == 'jitls' then table.insert(found, d) end
    end
    return found
  end
  res.diagnostic_seen = vim.wait(120000, function()
    for _, d in ipairs(jitls_diags()) do if d.code == 'tracedbool' then return true end end
    return false
  end, 100)
  local diag
  for _, d in ipairs(jitls_diags()) do if d.code == 'tracedbool' then diag = d end end
  if not diag then return end
  res.message = diag.message
  res.line = diag.lnum
  local range = { start = { line = diag.lnum, character = diag.col }, ['end'] = { line = diag.end_lnum, character = diag.end_col } }
  local lspdiag = { range = range, message = diag.message, source = diag.source, code = diag.code, severity = 2 }
  local resp = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, range = range,
    context = { diagnostics = { lspdiag } } }, 30000, buf)
  if resp and resp.err then res.action_error = resp.err.message end
  local actions = (resp and resp.result) or {}
  res.actions = #actions
  if #actions == 0 then return end
  res.action_title = actions[1].title
  vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding or 'utf-16')
  res.buffer = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  res.diagnostic_cleared = vim.wait(120000, function()
    for _, d in ipairs(jitls_diags()) do if d.code == 'tracedbool' then return false end end
    return true
  end, 100)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local pos
  for i, l in ipairs(lines) do
    local c = l:find('func ReluWhere', 1, true)
    if c then pos = { line = i - 1, character = c + 5 } end
  end
  local hover = client.request_sync('textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos }, 180000, buf)
  if hover and hover.result then res.hover = hover.result.contents.value end
  if hover and hover.err then res.hover_error = hover.err.message end
end)
if not ok then res.lua_error = tostring(err) end
finish()
`

func TestNeovimEndToEnd(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("JITLS_E2E") == "1" {
			t.Fatalf("JITLS_E2E=1 but nvim is not on PATH: install the Debian package neovim (apt-get install -y neovim)")
		}
		t.Skip("nvim not installed; set JITLS_E2E=1 to make this a failure")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "jitls")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building jitls: %v\n%s", err, out)
	}
	dir := lsptest.SampleModule(t, nil)
	before := lsptest.TreeDigest(t, dir)
	script := filepath.Join(tmp, "e2e.lua")
	if err := os.WriteFile(script, []byte(e2eScript), 0o644); err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(tmp, "result.json")
	cmd := exec.Command(nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JITLS_BIN="+bin, "JITLS_FILE="+filepath.Join(dir, "relu", "relu.go"),
		"JITLS_RESULT="+result, "JITLS_LOG="+filepath.Join(tmp, "jitls.log"), "XDG_STATE_HOME="+filepath.Join(tmp, "state"), "XDG_DATA_HOME="+filepath.Join(tmp, "data"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result (%v); its output:\n%s", err, out)
	}
	var res struct {
		DiagnosticSeen    bool   `json:"diagnostic_seen"`
		Message           string `json:"message"`
		Actions           int    `json:"actions"`
		ActionTitle       string `json:"action_title"`
		Buffer            string `json:"buffer"`
		DiagnosticCleared bool   `json:"diagnostic_cleared"`
		Hover             string `json:"hover"`
		HoverError        string `json:"hover_error"`
		LuaError          string `json:"lua_error"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	t.Logf("nvim saw: %s", data)
	if res.LuaError != "" {
		t.Fatalf("the Lua script failed: %s", res.LuaError)
	}
	if !res.DiagnosticSeen {
		t.Fatalf("no tracedbool diagnostic from jitls on ReluBad")
	}
	if b, err := os.ReadFile(filepath.Join(tmp, "jitls.log")); err == nil && (t.Failed() || res.Actions == 0) {
		t.Logf("jitls log:\n%s", b)
	}
	if res.Actions == 0 {
		t.Fatalf("no quick fix offered for %q", res.Message)
	}
	if !strings.Contains(res.Buffer, "return jit.Where(x.Gt(0), x, x.Mul(0))") || strings.Contains(res.Buffer, ".Bool()") {
		t.Errorf("buffer after applying %q:\n%s", res.ActionTitle, res.Buffer)
	}
	if !res.DiagnosticCleared {
		t.Errorf("the tracedbool diagnostic stayed after the fix")
	}
	if !strings.Contains(res.Hover, "{ lambda ; a:f32[5]. let") || !strings.Contains(res.Hover, "select_n") {
		t.Errorf("hover on ReluWhere has no jaxpr: %q (error %q)", res.Hover, res.HoverError)
	}
	if after := lsptest.TreeDigest(t, dir); after != before {
		t.Errorf("the workspace changed during the Neovim session")
	}
}
