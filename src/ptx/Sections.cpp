// Which section of the PTX ISA (9.1 numbering) defines each synchronising instruction.
#include "ptx/Sections.hpp"

namespace ptxmc::ptx {

namespace {

const char* const kSync = "parallel-synchronization-and-communication-instructions-";
const char* const kMove = "data-movement-and-conversion-instructions-";

Section sync(const char* number, const std::string& rest) {
    return {number, kSync + rest};
}
Section move(const char* number, const std::string& rest) {
    return {number, kMove + rest};
}

/** Release and acquire accesses synchronize through the patterns of 8.8. */
Section ordering(Sem sem) {
    if (sem == Sem::Release || sem == Sem::Acquire || sem == Sem::AcqRel)
        return {"8.8", "release-acquire-patterns"};
    return {};
}

struct Of {
    Section operator()(const Ld& x) const { return ordering(x.sem); }
    Section operator()(const St& x) const { return ordering(x.sem); }
    Section operator()(const Atom&) const { return sync("9.7.13.5", "atom"); }
    Section operator()(const Fence&) const { return sync("9.7.13.4", "membar"); }
    Section operator()(const Membar&) const { return sync("9.7.13.4", "membar"); }
    Section operator()(const ProxyFence&) const { return sync("9.7.13.4", "membar"); }
    Section operator()(const TensormapCopy&) const {
        return sync("9.7.13.16", "tensormap-cp-fenceproxy");
    }
    Section operator()(const Barrier& x) const {
        return x.cluster ? sync("9.7.13.2", "barrier-cluster") : sync("9.7.13.1", "bar-barrier");
    }
    Section operator()(const MbarrierArrive& x) const {
        return x.drop ? sync("9.7.13.15.14", "mbarrier-arrive-drop")
                      : sync("9.7.13.15.13", "mbarrier-arrive");
    }
    Section operator()(const MbarrierTx& x) const {
        return x.complete ? sync("9.7.13.15.12", "mbarrier-complete-tx")
                          : sync("9.7.13.15.5.1", "mbarrier-expect-tx-operation");
    }
    Section operator()(const MbarrierWait&) const {
        return sync("9.7.13.15.16", "mbarrier-test-wait-try-wait");
    }
    Section operator()(const CpAsyncArrive&) const {
        return sync("9.7.13.15.15", "cp-async-mbarrier-arrive");
    }
    Section operator()(const BulkCommit& x) const {
        return x.nonBulk ? move("9.7.9.25.3.2", "cp-async-commit-group")
                         : move("9.7.9.25.6.1", "cp-async-bulk-commit-group");
    }
    Section operator()(const BulkWait& x) const {
        return x.nonBulk ? move("9.7.9.25.3.3", "cp-async-wait-group")
                         : move("9.7.9.25.6.2", "cp-async-bulk-wait-group");
    }
    Section operator()(const Tcgen05Wait&) const {
        return {"9.7.16.8.5", "tcgen05-instructions-tcgen05-wait"};
    }
    Section operator()(const Tcgen05Commit&) const {
        return {"9.7.16.12.1", "tcgen-async-sync-operations-commit"};
    }
    Section operator()(const Tcgen05Fence&) const {
        return {"9.7.16.11.1", "tcgen05-special-sync-operations-fence"};
    }
    template <class Other> Section operator()(const Other&) const { return {}; }
};

} // namespace

Section sectionOf(const Insn& insn) {
    return std::visit(Of{}, insn.op);
}

std::string citation(const Section& s) {
    return s.number.empty() ? std::string() : "PTX ISA " + s.number + " #" + s.anchor;
}

} // namespace ptxmc::ptx
