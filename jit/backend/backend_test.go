package backend

import (
	"errors"
	"strings"
	"testing"
)

// TestRegisterTwicePanics: a second Register under a name panics and keeps
// the first backend, as database/sql's Register does.
func TestRegisterTwicePanics(t *testing.T) {
	first := errors.New("first")
	Register("test-twice", func() (Backend, error) { return nil, first })
	msg := registerPanic(t, "test-twice", func() (Backend, error) { return nil, errors.New("second") })
	if !strings.Contains(msg, `Register called twice for backend "test-twice"`) {
		t.Errorf("panic %q does not name the duplicate registration", msg)
	}
	if _, err := Get("test-twice"); err != first {
		t.Errorf("Get after the duplicate = %v, want the first backend's %v", err, first)
	}
}

// TestRegisterNilPanics: a nil open function is refused at registration,
// not when the backend is first used.
func TestRegisterNilPanics(t *testing.T) {
	msg := registerPanic(t, "test-nil", nil)
	if !strings.Contains(msg, `backend "test-nil" with a nil open function`) {
		t.Errorf("panic %q does not say the open function is nil", msg)
	}
	if _, err := Get("test-nil"); err == nil || !strings.Contains(err.Error(), `unknown backend "test-nil"`) {
		t.Errorf("Get of the refused backend: err = %v, want unknown backend", err)
	}
}

// registerPanic calls Register and returns its panic message, failing the
// test if it does not panic.
func registerPanic(t *testing.T, name string, open func() (Backend, error)) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("Register(%q) did not panic", name)
		}
		msg, _ = r.(string)
	}()
	Register(name, open)
	return ""
}
