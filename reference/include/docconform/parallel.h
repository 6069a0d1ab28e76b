// The worker pool of the parallel loaders: jobs are taken from a shared atomic counter, so
// jobs of unequal size balance without a scheduler. The first exception thrown by any job is
// rethrown on the caller after every thread has joined; later jobs are not started once a job
// has failed. Zero or one job, or a cap of one, runs as a plain serial loop on the caller.
#pragma once

#include <cstddef>
#include <functional>

namespace docconform {

// Every component takes its thread count as one `unsigned threads`, read only through the
// functions below: 0 = as many as useful (min(jobs, hardware threads)), 1 = the calling thread
// only, n = at most n.

// Hardware threads, at least 1.
unsigned hardware_threads() noexcept;

// Threads that parallel_for would use: min(jobs, cap, hardware threads); cap 0 = auto.
unsigned planned_threads(std::size_t jobs, unsigned cap) noexcept;

// Whether a cap lets two or more threads run (planned_threads(2, cap) >= 2).
bool runs_parallel(unsigned cap) noexcept;

// Runs job(i) for every i in [0, jobs). The calling thread is one of the workers.
// job receives the job index and the worker index (0 .. planned_threads-1), so a job can
// use per-worker state (an arena, a zip handle) without locking.
void parallel_for(std::size_t jobs, unsigned cap,
                  const std::function<void(std::size_t job, unsigned worker)>& job);

// parallel_for for jobs that stand for the steps of a serial loop: when jobs fail, the error
// rethrown is that of the lowest failing job, the one the serial loop would have stopped at,
// whichever thread failed first. Jobs below it still run; jobs above it are skipped.
void parallel_for_serial_error(std::size_t jobs, unsigned cap,
                               const std::function<void(std::size_t job, unsigned worker)>& job);

}  // namespace docconform
