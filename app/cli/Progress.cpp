// Progress line: drawn with '\r' and overwritten with blanks, so it needs no terminal escapes.
#include "cli/Progress.hpp"

#include <cstdio>
#include <unistd.h>
#include <utility>

namespace ptxmc::cli {

std::string formatProgress(std::size_t done, std::size_t total, double seconds,
                           std::size_t failures) {
    char time[32];
    std::snprintf(time, sizeof time, "%.1f", seconds);
    return "ptxmc: " + std::to_string(done) + "/" + std::to_string(total) + " tests, " + time +
           " s, " + std::to_string(failures) + " failures";
}

bool stderrIsTerminal() {
    return isatty(STDERR_FILENO) == 1;
}

bool stdoutIsTerminal() {
    return isatty(STDOUT_FILENO) == 1;
}

Progress::Progress(std::size_t total, bool enabled, std::ostream& err)
    : total_(total), enabled_(enabled), err_(err) {
    start();
}

Progress::Progress(std::string task, double after, bool enabled, std::ostream& err)
    : total_(0), task_(std::move(task)), after_(after), enabled_(enabled), err_(err) {
    start();
}

void Progress::start() {
    if (!enabled_) return;
    {
        std::lock_guard first(mutex_);
        drawLocked();
    }
    clock_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        // Waking on the stop signal, not only on the timer, lets finish() return at once.
        while (!stop_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; }))
            drawLocked();
    });
}

Progress::~Progress() {
    finish();
}

void Progress::report(bool failed, bool onTerminal, const std::function<void()>& print) {
    std::lock_guard lock(mutex_);
    if (onTerminal) clearLocked();
    print();
    ++done_;
    if (failed) ++failures_;
    if (enabled_) drawLocked();
}

void Progress::finish() {
    {
        std::lock_guard lock(mutex_);
        if (!enabled_) return;
        stopping_ = true;
        clearLocked();
        enabled_ = false;
    }
    stop_.notify_all();
    if (clock_.joinable()) clock_.join();
}

void Progress::clearLocked() {
    if (drawn_ == 0) return;
    err_ << '\r' << std::string(drawn_, ' ') << '\r' << std::flush;
    drawn_ = 0;
}

void Progress::drawLocked() {
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    if (elapsed.count() < after_) return;
    std::string line;
    if (task_.empty()) {
        line = formatProgress(done_, total_, elapsed.count(), failures_);
    } else {
        char time[32];
        std::snprintf(time, sizeof time, "%.1f", elapsed.count());
        line = "ptxmc: " + task_ + ", " + time + " s";
    }
    // Pad over a longer previous line instead of clearing first: no flicker between draws.
    std::size_t width = line.size();
    if (drawn_ > width) line.append(drawn_ - width, ' ');
    err_ << '\r' << line << std::flush;
    drawn_ = width;
}

} // namespace ptxmc::cli
