package previewer

import "testing"

func TestUserStackKeepsOnlyUserFrames(t *testing.T) {
	stack := "goroutine 7 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n" +
		"panic({0x640bc0?, 0x6abe80?})\n\t/usr/local/go/src/runtime/panic.go:860 +0x13a\n" +
		"github.com/jitlint/jitlint/jit.recoverError(0x4728547c28)\n\t/work/main/jit/errors.go:136 +0x67\n" +
		"example.com/lspmod/relu.helper(...)\n\t/tmp/x/relu/x.go:9\n" +
		"example.com/lspmod/relu.Boom({0x0?})\n\t/tmp/x/relu/x.go:6 +0x25\n" +
		"reflect.Value.call({0x644ce0?})\n\t/usr/local/go/src/reflect/value.go:586 +0xf0c\n" +
		"github.com/jitlint/jitlint/jit/preview.run(0x1)\n\t/work/main/jit/preview/preview.go:92 +0x1\n" +
		"example.com/lspmod/relu.TestJitlsPreview.func1({0x6, 0x4})\n\t/tmp/x/relu/zz_jitls_preview_test.go:14 +0x1\n"
	want := "example.com/lspmod/relu.helper (/tmp/x/relu/x.go:9)\nexample.com/lspmod/relu.Boom (/tmp/x/relu/x.go:6)"
	if got := userStack(stack); got != want {
		t.Errorf("userStack =\n%s\nwant\n%s", got, want)
	}
}
