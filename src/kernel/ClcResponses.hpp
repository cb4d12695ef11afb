// The try_cancel responses of one cluster as the evaluation runs it: written, then read back.
#pragma once

#include "kernel/Lane.hpp"
#include "kernel/LaneValues.hpp"
#include "kernel/Launch.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::kernel {

/**
 * clusterlaunchcontrol (9.7.15.18, 9.7.15.19) over the evaluation's passes: the responses each
 * try_cancel writes to each shared address, in issue order, are known to loads on the same
 * pass once written and on the next pass from the start.
 */
class ClcResponses {
public:
    /** A new pass: no response written yet on it, no request made. */
    void beginPass();
    /** Ends a pass; whether it wrote other responses than the pass before. */
    bool endPass();

    /**
     * The response a lane's load of `slot` reads: its n-th load of the slot reads the n-th
     * response written there. That is what the protocol guarantees when the load waits for the
     * write (the mbarrier its complete-tx signals) and the slot is not rewritten before the
     * load; a load the protocol does not order so is a data race the check reports.
     */
    std::optional<Val> read(Lane& L, std::uint64_t slot);

    /**
     * try_cancel `st` (at `loc`): "asynchronously writes an opaque response to shared memory"
     * and signals a complete-tx of its 16 bytes on the mbarrier; with .multicast::cluster::all
     * in every CTA of the cluster, at the same offsets. Recorded on the lane as that write: a
     * 16-byte bulk copy per CTA, from a global location that stands for the responses, with
     * complete-tx on the CTA's mbarrier. Returns the note that says what --tiles makes of it.
     */
    std::string request(Lane& L, const Step& st, const SourceLoc& loc, int ctas, int tiles);

    /**
     * query_cancel: decodes the response operand 1 holds into the destination (is_canceled,
     * get_first_ctaid). A value that is no response is unknown, except on the last pass
     * (`lastPass`), where it is an error.
     */
    void query(Lane& L, const litmus::Instruction& in, const LaneValues& values, int tiles,
               const std::array<int, 3>& grid, const std::array<int, 3>& cluster, bool lastPass);

private:
    using Slots = std::map<std::uint64_t, std::vector<std::uint64_t>>;
    Slots stored_, seen_;        ///< the pass before, this pass
    Slots before_;               ///< stored_ when this pass began
    std::uint64_t requests_ = 0; ///< requests of the cluster so far this pass
};

} // namespace ptxmc::kernel
