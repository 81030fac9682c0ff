package server

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestConfigGuardFlags(t *testing.T) {
	c, err := ParseConfig(nil, env(nil), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.BodyBudget != 256<<20 || c.AllowOrigins != nil {
		t.Fatalf("defaults: budget %d, origins %q", c.BodyBudget, c.AllowOrigins)
	}
	e := env(map[string]string{"AINB_BODY_BUDGET": "512MiB", "AINB_ALLOW_ORIGINS": "https://a.example, http://localhost:3000"})
	if c, err = ParseConfig(nil, e, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if c.BodyBudget != 512<<20 || !reflect.DeepEqual(c.AllowOrigins, []string{"https://a.example", "http://localhost:3000"}) {
		t.Fatalf("from the environment: budget %d, origins %q", c.BodyBudget, c.AllowOrigins)
	}
	// The flags win.
	if c, err = ParseConfig([]string{"-body-budget", "1GiB", "-allow-origins", "https://b.example"}, e, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if c.BodyBudget != 1<<30 || !reflect.DeepEqual(c.AllowOrigins, []string{"https://b.example"}) {
		t.Fatalf("from flags: budget %d, origins %q", c.BodyBudget, c.AllowOrigins)
	}

	// net/http's message follows the origin's (its wording is its own).
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"-allow-origins", "a.example"}, `allow-origins: invalid origin "a.example": `},
		{[]string{"-allow-origins", "https://a.example/path"}, `allow-origins: invalid origin "https://a.example/path": `},
		{[]string{"-body-budget", "1MiB"}, "body-budget: 1048576 bytes is less than the largest request body the routes take (67108864 bytes)"},
	} {
		var out bytes.Buffer
		_, err := ParseConfig(bad.args, env(nil), &out)
		if err == nil || !strings.HasPrefix(err.Error(), bad.want) || !strings.Contains(out.String(), bad.want) {
			t.Errorf("%q: %v (output %q), want %s", bad.args, err, out.String(), bad.want)
		}
	}
	var out bytes.Buffer
	ParseConfig([]string{"-h"}, env(nil), &out)
	for _, want := range []string{"-body-budget [AINB_BODY_BUDGET]", `(default "256MiB")`, "-allow-origins [AINB_ALLOW_ORIGINS]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}
