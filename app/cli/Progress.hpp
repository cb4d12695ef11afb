// The progress line on a terminal: of a long `ptxmc check` (tests done, time, failures), or of
// one long `ptxmc kernel` check (its time).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace ptxmc::cli {

/** "ptxmc: 57/219 tests, 12.3 s, 0 failures": the line Progress redraws. */
std::string formatProgress(std::size_t done, std::size_t total, double seconds,
                           std::size_t failures);

/** Whether stderr is a terminal: the progress line is for people, never for logs or pipes. */
bool stderrIsTerminal();

/** Whether stdout is a terminal (then results land on the line the progress is drawn on). */
bool stdoutIsTerminal();

/**
 * Redraws one status line on `err` (with '\r', no escape codes) while tests run: after each test
 * and once a second in between, so the clock moves during a slow test. When disabled it writes
 * nothing at all. Every other write to the terminal must go through report(), which takes the
 * line away while it prints, so results and errors never end up mixed with it; output that goes
 * elsewhere (stdout redirected to a file) leaves the line in place, so it does not flicker.
 */
class Progress {
public:
    Progress(std::size_t total, bool enabled, std::ostream& err);
    /**
     * The line of one long task, "ptxmc: TASK, 12.3 s" (a kernel's check), drawn once it has
     * run `after` seconds: a check that ends sooner leaves the terminal as it was.
     */
    Progress(std::string task, double after, bool enabled, std::ostream& err);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    /** Runs print (clearing the line first when `onTerminal`), counts one test, redraws. */
    void report(bool failed, bool onTerminal, const std::function<void()>& print);

    /** Clears the line for good and stops the clock; later calls of report() only print. */
    void finish();

private:
    void start();
    void clearLocked();
    void drawLocked();

    const std::size_t total_;
    const std::string task_; ///< empty: the tests line
    const double after_ = 0; ///< seconds before the first draw
    bool enabled_;
    std::ostream& err_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::size_t done_ = 0, failures_ = 0;
    std::size_t drawn_ = 0; ///< length of the line on screen, 0 when none
    std::mutex mutex_;
    std::condition_variable stop_;
    bool stopping_ = false;
    std::thread clock_; ///< redraws once a second; joined by finish()
};

} // namespace ptxmc::cli
