package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// rssSampler samples a process's resident set size periodically.
type rssSampler struct {
	pid   int
	first int64 // kB at the start
	peak  int64 // kB, the largest sample
	err   error // the first failed read (the process is gone)
	done  chan struct{}
	ended chan struct{}
}

// startRSS samples pid's VmRSS now and then every interval until stop.
func startRSS(pid int, interval time.Duration) *rssSampler {
	s := &rssSampler{pid: pid, done: make(chan struct{}), ended: make(chan struct{})}
	s.first, s.err = readRSS(pid)
	s.peak = s.first
	go s.loop(interval)
	return s
}

func (s *rssSampler) loop(interval time.Duration) {
	defer close(s.ended)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		s.sample()
	}
}

func (s *rssSampler) sample() {
	if s.err != nil {
		return
	}
	kb, err := readRSS(s.pid)
	if err != nil {
		s.err = err
		return
	}
	s.peak = max(s.peak, kb)
}

// stop takes a last sample and returns the peak and the first sample (kB),
// or the error that made sampling fail.
func (s *rssSampler) stop() (peak, first int64, err error) {
	close(s.done)
	<-s.ended
	s.sample()
	return s.peak, s.first, s.err
}

// readRSS returns the VmRSS line of /proc/PID/status, in kB.
func readRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:")); ok {
			f := bytes.Fields(rest) // "123456 kB"
			if len(f) == 0 {
				break
			}
			return strconv.ParseInt(string(f[0]), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status (a zombie?)", pid)
}
