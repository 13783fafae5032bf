// Command k6 is k6 with the load suite's extension k6/x/wfcheck built in.
package main

import (
	k6cmd "go.k6.io/k6/cmd"

	_ "wfcheck/load/xk6/wfcheck"
)

func main() {
	k6cmd.Execute()
}
