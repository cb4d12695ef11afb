// Interchangeable threads: equal signatures in order, and a swap that keeps the schedule order.
#include "smt/ThreadSymmetry.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace ptxmc::engine::schedules {

namespace {

/** The thread an event belongs to: its own, or for an event of no thread, its issuer's. */
int ownerOf(const ir::Program& p, int e) {
    const ir::Event& ev = p.events[static_cast<std::size_t>(e)];
    if (ev.thread >= 0 || ev.issue < 0) return ev.thread;
    return p.events[static_cast<std::size_t>(ev.issue)].thread;
}

using Signature = std::optional<std::vector<std::int64_t>>;

/** A thread's scheduled events and their signatures, in program (id) order. */
struct Thread {
    int id = -1;
    std::vector<int> events;
    std::vector<Signature> signatures;
};

/**
 * Whether swapping the first member's events with `b`'s (event for event, `b`'s prefix left
 * out as run) maps every event's predecessors onto its image's: then it maps every schedule
 * from a state where the prefix ran onto one. `image` is the identity, and is left so.
 */
bool swapKeepsOrder(const std::vector<int>& scheduled, const std::vector<std::vector<int>>& preds,
                    const std::vector<int>& a, const ClassMember& b, std::vector<int>& image,
                    std::vector<bool>& ran) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        image[static_cast<std::size_t>(a[i])] = b.events[i];
        image[static_cast<std::size_t>(b.events[i])] = a[i];
    }
    for (int e : b.prefix)
        ran[static_cast<std::size_t>(e)] = true;
    auto mapped = [&](int e) {
        std::vector<int> out;
        for (int x : preds[static_cast<std::size_t>(e)])
            if (!ran[static_cast<std::size_t>(x)])
                out.push_back(image[static_cast<std::size_t>(x)]);
        std::sort(out.begin(), out.end());
        return out;
    };
    auto unmapped = [&](int e) {
        std::vector<int> out;
        for (int x : preds[static_cast<std::size_t>(e)])
            if (!ran[static_cast<std::size_t>(x)]) out.push_back(x);
        return out;
    };
    const bool keeps = std::all_of(scheduled.begin(), scheduled.end(), [&](int e) {
        return ran[static_cast<std::size_t>(e)] ||
               mapped(e) == unmapped(image[static_cast<std::size_t>(e)]);
    });
    for (std::size_t i = 0; i < a.size(); ++i) { // back to the identity
        image[static_cast<std::size_t>(a[i])] = a[i];
        image[static_cast<std::size_t>(b.events[i])] = b.events[i];
    }
    for (int e : b.prefix)
        ran[static_cast<std::size_t>(e)] = false;
    return keeps;
}

/** `t` as a member of the class whose first member is `first`: its last events as many as
 *  first's, with their signatures equal in order (nullopt where they are not). */
std::optional<ClassMember> asMemberOf(const Thread& first, const Thread& t) {
    const std::size_t n = first.events.size();
    if (t.events.size() < n) return std::nullopt;
    const std::size_t skip = t.events.size() - n;
    for (std::size_t i = 0; i < n; ++i)
        if (!t.signatures[skip + i] || t.signatures[skip + i] != first.signatures[i])
            return std::nullopt;
    return ClassMember{t.id,
                       {t.events.begin(), t.events.begin() + static_cast<std::ptrdiff_t>(skip)},
                       {t.events.begin() + static_cast<std::ptrdiff_t>(skip), t.events.end()}};
}

} // namespace

ThreadClasses findThreadClasses(const ir::Program& p, const std::vector<int>& scheduled,
                                const std::vector<std::vector<int>>& preds,
                                const EventSignature& signature) {
    std::map<int, Thread> byId;
    for (int e : scheduled)
        if (const int t = ownerOf(p, e); t >= 0) byId[t].events.push_back(e);
    std::vector<Thread> threads;
    for (auto& [id, t] : byId) {
        t.id = id;
        std::sort(t.events.begin(), t.events.end());
        for (int e : t.events)
            t.signatures.push_back(signature(e));
        threads.push_back(std::move(t));
    }
    // Shortest first: a class's first member is one with no prefix.
    std::stable_sort(threads.begin(), threads.end(), [](const Thread& a, const Thread& b) {
        return a.events.size() < b.events.size();
    });
    std::vector<int> image(p.events.size());
    std::iota(image.begin(), image.end(), 0);
    std::vector<bool> ran(p.events.size(), false);
    std::vector<std::size_t> firsts; // index in `threads` of each class's first member
    ThreadClasses classes;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        const Thread& t = threads[i];
        bool joined = false;
        for (std::size_t c = 0; c < classes.size() && !joined; ++c) {
            const Thread& first = threads[firsts[c]];
            std::optional<ClassMember> m = asMemberOf(first, t);
            if (m && swapKeepsOrder(scheduled, preds, first.events, *m, image, ran)) {
                classes[c].push_back(std::move(*m));
                joined = true;
            }
        }
        const bool signed_ = std::all_of(t.signatures.begin(), t.signatures.end(),
                                         [](const Signature& s) { return s.has_value(); });
        if (!joined && signed_ && !t.events.empty()) {
            firsts.push_back(i);
            classes.push_back({ClassMember{t.id, {}, t.events}});
        }
    }
    std::erase_if(classes, [](const auto& cls) { return cls.size() < 2; });
    return classes;
}

} // namespace ptxmc::engine::schedules
