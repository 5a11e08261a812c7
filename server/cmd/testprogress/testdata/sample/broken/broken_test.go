package broken

import "testing"

func TestDoesNotBuild(t *testing.T) { undefinedName() }
