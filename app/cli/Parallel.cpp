// A counter hands out jobs; a condition variable tells the emitter when the next one is done.
#include "cli/Parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ptxmc::cli {

void runInOrder(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work,
                const std::function<void(std::size_t)>& emit) {
    if (jobs <= 1 || count <= 1) {
        for (std::size_t i = 0; i < count; ++i) {
            work(i);
            emit(i);
        }
        return;
    }
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::condition_variable doneChanged;
    std::vector<char> done(count, 0);
    std::vector<std::exception_ptr> failures(count);
    auto worker = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            std::exception_ptr failure;
            try {
                work(i);
            } catch (...) {
                failure = std::current_exception();
            }
            std::lock_guard lock(mutex);
            failures[i] = failure;
            done[i] = 1;
            doneChanged.notify_all();
        }
    };
    std::size_t threads = std::min<std::size_t>(jobs, count);
    // jthreads join on scope exit, also when emit throws: no job outlives the slots it writes.
    std::vector<std::jthread> pool;
    for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back(worker);
    try {
        for (std::size_t i = 0; i < count; ++i) {
            std::exception_ptr failure;
            {
                std::unique_lock lock(mutex);
                doneChanged.wait(lock, [&] { return done[i] != 0; });
                failure = failures[i];
            }
            if (failure) std::rethrow_exception(failure);
            emit(i);
        }
    } catch (...) {
        next = count; // hand out no more work; the pool drains what is running, then joins
        throw;
    }
}

} // namespace ptxmc::cli
