// Command wfserver is an in-memory implementation of the
// "Workflow Automation Service" programmatic interface (see contracts/spec/service-api.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

const (
	defaultKeyA = "wfk_A_7sKq2VbX9mPzR4tLc8NdY3hJ"
	defaultKeyB = "wfk_B_Q5nW8eTz1GxA6uHr3LpM9kVd"
)

func main() {
	port := flag.Int("port", 0, "TCP port to listen on (0 = any free port)")
	speed := flag.Float64("speed", 1.0, "multiplier applied to every execution duration (e.g. 0.05 = 20x faster)")
	flag.Parse()

	logger := log.New(os.Stderr, "wfserver ", log.LstdFlags|log.Lmicroseconds)

	if *port < 0 || *port > 65535 {
		fmt.Fprintf(os.Stderr, "invalid -port %d\n", *port)
		os.Exit(2)
	}
	if math.IsNaN(*speed) || math.IsInf(*speed, 0) || *speed < 0 {
		fmt.Fprintf(os.Stderr, "invalid -speed %v (must be a finite number >= 0)\n", *speed)
		os.Exit(2)
	}

	keyA := os.Getenv("WF_KEY_A")
	if keyA == "" {
		keyA = defaultKeyA
	}
	keyB := os.Getenv("WF_KEY_B")
	if keyB == "" {
		keyB = defaultKeyB
	}
	if keyA == keyB {
		fmt.Fprintln(os.Stderr, "WF_KEY_A and WF_KEY_B must differ")
		os.Exit(2)
	}

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "listen: %v\n", err)
		os.Exit(1)
	}
	actualPort := ln.Addr().(*net.TCPAddr).Port
	baseURL := fmt.Sprintf("http://127.0.0.1:%d/v1", actualPort)

	store := NewStore(*speed, time.Now())
	store.AddTenant("A", keyA)
	store.AddTenant("B", keyB)
	seed(store)

	srv := &Server{store: store, baseURL: baseURL, log: logger}
	httpSrv := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 15 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          logger,
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go store.janitor(ctx)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-sigs
		logger.Printf("shutting down")
		sctx, c := context.WithTimeout(context.Background(), 3*time.Second)
		defer c()
		_ = httpSrv.Shutdown(sctx)
	}()

	logger.Printf("speed=%v tenants=A,B", *speed)
	fmt.Fprintf(os.Stdout, "listening %s\n", baseURL)
	_ = os.Stdout.Sync()

	if err := httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Printf("serve: %v", err)
		os.Exit(1)
	}
}
