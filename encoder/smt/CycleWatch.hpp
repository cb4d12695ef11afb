// A graph whose edges come and go with the solver's search, kept in topological order.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace ptxmc::engine::smt {

/**
 * The possible edges of one acyclicity axiom, of which the search makes some active. While
 * `ordering` is on, the active edges keep a topological order, updated per added edge by
 * Pearce and Kelly's algorithm (a search only between the edge's ends in the order), so an
 * edge that would close a cycle is found at once and the cycle's edges returned. Removing
 * edges (the search backtracking) keeps an order valid. No solver types: unit-tested alone.
 */
class CycleWatch {
public:
    explicit CycleWatch(std::size_t nodes);

    /** A possible edge; returns its index. Self-loops are not edges here (the caller's). */
    int addEdge(int from, int to);
    std::size_t edges() const { return from_.size(); }
    int from(int edge) const { return from_[static_cast<std::size_t>(edge)]; }
    int to(int edge) const { return to_[static_cast<std::size_t>(edge)]; }
    bool active(int edge) const { return active_[static_cast<std::size_t>(edge)]; }

    /**
     * Makes `edge` active. With ordering on, an edge that closes a cycle of active edges stays
     * inactive and the cycle is returned (its edges, this one last); nothing otherwise.
     */
    std::optional<std::vector<int>> activate(int edge);
    /** An inactive edge that would close a cycle, and the active path from its end to its
     *  start (the reason it must stay inactive). */
    struct Closer {
        int edge;
        std::vector<int> path;
    };
    /**
     * The inactive edges that active `edge` now makes close a cycle: from a node reachable
     * from its end to one that reaches its start. For the solver's propagation: with each
     * found before it is tried, the search need not guess an edge to learn it is excluded.
     * With `wanted`, only the edges it accepts are returned (no path built for the others).
     */
    std::vector<Closer> closers(int edge, const std::function<bool(int)>& wanted = {});

    /** How many edges are active, in activation order: a mark to undo to. */
    std::size_t mark() const { return trail_.size(); }
    /** Deactivates the edges activated after `mark`. */
    void undoTo(std::size_t mark);

    bool ordering() const { return ordering_; }
    /** Turns ordering off: edges then come without a check. */
    void stopOrdering() { ordering_ = false; }
    /**
     * Turns ordering on over the active edges: a cycle among them is returned (and ordering
     * stays off), otherwise they get a topological order.
     */
    std::optional<std::vector<int>> startOrdering();
    /** A cycle of active edges, if there is one (whatever the ordering). */
    std::optional<std::vector<int>> findCycle() const;

private:
    /** Nodes reachable from `start` over active edges within `bound` of the order, forwards or
     *  backwards; with `target` reached (forwards) the path's edges are left in `path`. */
    bool search(int start, int bound, bool forwards, int target, std::vector<int>& visited,
                std::vector<int>* path);
    void reorder(std::vector<int>& backward, std::vector<int>& forward);
    /** A fresh stamp for seen_ / seenBack_ (clearing them when the counter wraps). */
    unsigned nextEpoch();

    std::vector<int> from_, to_;
    std::vector<std::vector<int>> out_, in_; ///< per node: possible edges leaving, entering
    std::vector<bool> active_;
    std::vector<int> trail_;
    bool ordering_ = false;
    std::vector<int> position_;      ///< node -> place in the order
    std::vector<int> parentEdge_;    ///< scratch of search(): the edge that reached a node
    std::vector<unsigned> seen_;     ///< scratch: epoch a node was last visited in
    std::vector<unsigned> seenBack_; ///< closers(): epoch of the backward search
    std::vector<int> parentBack_;
    unsigned epoch_ = 0;
};

} // namespace ptxmc::engine::smt
