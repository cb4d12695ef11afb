// A search on its own thread, waited for until the deadline and left behind after it.
#include "check/LeftBehind.hpp"

#include "cat/Resolver.hpp"

#include <atomic>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace ptxmc::engine {

namespace {

std::atomic<std::size_t> leftBehind{0};

/** What the search thread owns: it may outlive the caller's program, model and results. */
struct Detached {
    ir::Program program;
    cat::ResolvedModel model;
    std::vector<engine::CheckResult> out;
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
};

} // namespace

bool searchWithin(const ir::Program& program, const cat::ResolvedModel& model,
                  Clock::time_point deadline, std::vector<engine::CheckResult>& out,
                  DetachableSearch search) {
#if defined(__GLIBC__)
    // The search allocates in its thread's own malloc arena; what the caller freed in its
    // arena (the extraction's evaluation) would stay resident beside it: 33 MiB at the growth
    // kernel's 4 CTAs with multicast (603 -> 570 MiB). Under AddressSanitizer it trims glibc's
    // unused arenas only, which does nothing.
    malloc_trim(0);
#endif
    auto d = std::make_shared<Detached>();
    d->program = program;
    d->model = model;
    d->out = out;
    std::thread worker([d, search = std::move(search)] {
        search(d->program, d->model, d->out);
        {
            std::lock_guard<std::mutex> lock(d->mutex);
            d->done = true;
        }
        d->finished.notify_all();
    });
    std::unique_lock<std::mutex> lock(d->mutex);
    if (d->finished.wait_until(lock, deadline, [&] { return d->done; })) {
        lock.unlock();
        worker.join();
        out = std::move(d->out);
        return true;
    }
    lock.unlock();
    worker.detach();
    ++leftBehind;
    return false;
}

std::size_t searchesLeftBehind() {
    return leftBehind.load();
}

} // namespace ptxmc::engine
