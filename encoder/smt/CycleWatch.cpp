// Incremental cycle detection over active edges (Pearce and Kelly's dynamic topological order).
#include "smt/CycleWatch.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace ptxmc::engine::smt {

CycleWatch::CycleWatch(std::size_t nodes)
    : out_(nodes), in_(nodes), position_(nodes), parentEdge_(nodes, -1), seen_(nodes, 0),
      seenBack_(nodes, 0), parentBack_(nodes, -1) {
    std::iota(position_.begin(), position_.end(), 0);
}

int CycleWatch::addEdge(int from, int to) {
    const auto e = static_cast<int>(from_.size());
    from_.push_back(from);
    to_.push_back(to);
    active_.push_back(false);
    out_[static_cast<std::size_t>(from)].push_back(e);
    in_[static_cast<std::size_t>(to)].push_back(e);
    return e;
}

std::optional<std::vector<int>> CycleWatch::activate(int edge) {
    const auto e = static_cast<std::size_t>(edge);
    if (active_[e]) return std::nullopt;
    const int x = from_[e], y = to_[e];
    if (ordering_ &&
        position_[static_cast<std::size_t>(y)] < position_[static_cast<std::size_t>(x)]) {
        // Only the nodes placed between y and x can move: forwards from y up to x's place
        // (reaching x closes a cycle), backwards from x down to y's place.
        std::vector<int> forward, backward, path;
        if (search(y, position_[static_cast<std::size_t>(x)], true, x, forward, &path)) {
            path.push_back(edge);
            return path;
        }
        search(x, position_[static_cast<std::size_t>(y)], false, -1, backward, nullptr);
        reorder(backward, forward);
    }
    active_[e] = true;
    trail_.push_back(edge);
    return std::nullopt;
}

std::vector<CycleWatch::Closer> CycleWatch::closers(int edge,
                                                    const std::function<bool(int)>& wanted) {
    const int x = from_[static_cast<std::size_t>(edge)], y = to_[static_cast<std::size_t>(edge)];
    // Backwards from x: parentBack_[a] is the edge from a towards x.
    const unsigned back = nextEpoch();
    std::vector<int> reachX{x};
    seenBack_[static_cast<std::size_t>(x)] = back;
    for (std::size_t k = 0; k < reachX.size(); ++k)
        for (int e : in_[static_cast<std::size_t>(reachX[k])]) {
            const auto a = static_cast<std::size_t>(from_[static_cast<std::size_t>(e)]);
            if (!active_[static_cast<std::size_t>(e)] || seenBack_[a] == back) continue;
            seenBack_[a] = back;
            parentBack_[a] = e;
            reachX.push_back(static_cast<int>(a));
        }
    // Forwards from y: parentEdge_[b] is the edge into b from y's side.
    nextEpoch();
    std::vector<int> fromY{y};
    seen_[static_cast<std::size_t>(y)] = epoch_;
    std::vector<Closer> out;
    for (std::size_t k = 0; k < fromY.size(); ++k) {
        const int b = fromY[k];
        for (int e : out_[static_cast<std::size_t>(b)]) {
            const auto w = static_cast<std::size_t>(to_[static_cast<std::size_t>(e)]);
            if (active_[static_cast<std::size_t>(e)]) {
                if (seen_[w] == epoch_) continue;
                seen_[w] = epoch_;
                parentEdge_[w] = e;
                fromY.push_back(static_cast<int>(w));
                continue;
            }
            if (seenBack_[w] != back || (wanted && !wanted(e))) continue;
            Closer c{e, {}};
            for (int at = static_cast<int>(w); at != x;) { // w -> ... -> x
                const int pe = parentBack_[static_cast<std::size_t>(at)];
                c.path.push_back(pe);
                at = to_[static_cast<std::size_t>(pe)];
            }
            c.path.push_back(edge);
            std::vector<int> tail; // y -> ... -> b
            for (int at = b; at != y;) {
                const int pe = parentEdge_[static_cast<std::size_t>(at)];
                tail.push_back(pe);
                at = from_[static_cast<std::size_t>(pe)];
            }
            c.path.insert(c.path.end(), tail.rbegin(), tail.rend());
            out.push_back(std::move(c));
        }
    }
    return out;
}

unsigned CycleWatch::nextEpoch() {
    if (++epoch_ == 0) { // wrapped: stamps of 2^32 searches ago would read as current
        std::fill(seen_.begin(), seen_.end(), 0U);
        std::fill(seenBack_.begin(), seenBack_.end(), 0U);
        epoch_ = 1;
    }
    return epoch_;
}

void CycleWatch::undoTo(std::size_t mark) {
    while (trail_.size() > mark) {
        active_[static_cast<std::size_t>(trail_.back())] = false;
        trail_.pop_back();
    }
}

bool CycleWatch::search(int start, int bound, bool forwards, int target, std::vector<int>& visited,
                        std::vector<int>* path) {
    nextEpoch();
    // Breadth first: a cycle found is a shortest one through the new edge, the solver's
    // learned clause the shortest such.
    std::vector<int>& todo = visited;
    todo.push_back(start);
    seen_[static_cast<std::size_t>(start)] = epoch_;
    for (std::size_t next = 0; next < todo.size(); ++next) {
        const int u = todo[next];
        for (int e : (forwards ? out_ : in_)[static_cast<std::size_t>(u)]) {
            if (!active_[static_cast<std::size_t>(e)]) continue;
            const int w =
                forwards ? to_[static_cast<std::size_t>(e)] : from_[static_cast<std::size_t>(e)];
            const auto wi = static_cast<std::size_t>(w);
            if (seen_[wi] == epoch_) continue;
            if (forwards ? position_[wi] > bound : position_[wi] < bound) continue;
            seen_[wi] = epoch_;
            parentEdge_[wi] = e;
            if (w == target) {
                for (int at = w; at != start;) {
                    const int pe = parentEdge_[static_cast<std::size_t>(at)];
                    path->push_back(pe);
                    at = from_[static_cast<std::size_t>(pe)];
                }
                std::reverse(path->begin(), path->end());
                return true;
            }
            todo.push_back(w);
        }
    }
    return false;
}

void CycleWatch::reorder(std::vector<int>& backward, std::vector<int>& forward) {
    auto byPosition = [this](int a, int b) {
        return position_[static_cast<std::size_t>(a)] < position_[static_cast<std::size_t>(b)];
    };
    std::sort(backward.begin(), backward.end(), byPosition);
    std::sort(forward.begin(), forward.end(), byPosition);
    std::vector<int> places;
    for (int v : backward)
        places.push_back(position_[static_cast<std::size_t>(v)]);
    for (int v : forward)
        places.push_back(position_[static_cast<std::size_t>(v)]);
    std::sort(places.begin(), places.end());
    std::size_t k = 0;
    for (int v : backward)
        position_[static_cast<std::size_t>(v)] = places[k++];
    for (int v : forward)
        position_[static_cast<std::size_t>(v)] = places[k++];
}

std::optional<std::vector<int>> CycleWatch::startOrdering() {
    // Kahn's algorithm over the active edges; nodes left over lie on or behind a cycle.
    const std::size_t n = out_.size();
    std::vector<int> indegree(n, 0);
    for (int e : trail_)
        ++indegree[static_cast<std::size_t>(to_[static_cast<std::size_t>(e)])];
    std::vector<int> ready;
    for (std::size_t v = 0; v < n; ++v)
        if (indegree[v] == 0) ready.push_back(static_cast<int>(v));
    int placed = 0;
    std::vector<int> position(n, -1);
    while (!ready.empty()) {
        const int u = ready.back();
        ready.pop_back();
        position[static_cast<std::size_t>(u)] = placed++;
        for (int e : out_[static_cast<std::size_t>(u)])
            if (active_[static_cast<std::size_t>(e)] &&
                --indegree[static_cast<std::size_t>(to_[static_cast<std::size_t>(e)])] == 0)
                ready.push_back(to_[static_cast<std::size_t>(e)]);
    }
    if (static_cast<std::size_t>(placed) < n) return findCycle();
    position_ = std::move(position);
    ordering_ = true;
    return std::nullopt;
}

std::optional<std::vector<int>> CycleWatch::findCycle() const {
    const std::size_t n = out_.size();
    enum Color : unsigned char { White, Grey, Black };
    std::vector<Color> color(n, White);
    std::vector<std::size_t> enteredAt(n, 0); // edge-stack depth when the node was entered
    for (std::size_t root = 0; root < n; ++root) {
        if (color[root] != White) continue;
        std::vector<std::pair<int, std::size_t>> stack{{static_cast<int>(root), 0}};
        std::vector<int> edgeStack;
        color[root] = Grey;
        while (!stack.empty()) {
            auto& [u, next] = stack.back();
            const auto& outs = out_[static_cast<std::size_t>(u)];
            if (next == outs.size()) {
                color[static_cast<std::size_t>(u)] = Black;
                stack.pop_back();
                if (!edgeStack.empty()) edgeStack.pop_back();
                continue;
            }
            const int e = outs[next++];
            if (!active_[static_cast<std::size_t>(e)]) continue;
            const auto w = static_cast<std::size_t>(to_[static_cast<std::size_t>(e)]);
            if (color[w] == Grey) {
                std::vector<int> cycle(edgeStack.begin() + static_cast<long>(enteredAt[w]),
                                       edgeStack.end());
                cycle.push_back(e);
                return cycle;
            }
            if (color[w] == White) {
                color[w] = Grey;
                enteredAt[w] = edgeStack.size() + 1;
                edgeStack.push_back(e);
                stack.emplace_back(static_cast<int>(w), 0);
            }
        }
    }
    return std::nullopt;
}

} // namespace ptxmc::engine::smt
