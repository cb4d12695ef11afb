// The rules, paraphrased from the reference notes' reading of PTX ISA 9.0/9.1 section 9.7.16.
#include "matrix/Rules.hpp"

#include <stdexcept>

namespace ptxmc::matrix {

const std::vector<Rule>& rules() {
    static const std::vector<Rule> all = {
        {"async", "9.7.16.6.1", "tcgen05-memory-consistency-model-async-operations",
         "asynchronous tcgen05 operations (mma, cp, shift, ld, st) are not ordered with each "
         "other unless pipelined; synchronous ones are ordered in their thread"},
        {"pipelined", "9.7.16.6.2", "tcgen05-memory-consistency-model-pipelined-instructions",
         "only P1 mma->mma (same accumulator, shape, kind), P2 cp->mma, P3 shift->mma, "
         "P4 shift->cp.4x256b and P5 mma->shift execute in issue order"},
        {"mbarrier-completion", "9.7.16.6.2.1.1",
         "tcgen05-memory-consistency-model-mbarrier-completion",
         "tcgen05.commit arrives when the prior mma, cp and shift of its thread complete; it "
         "tracks no ld or st"},
        {"wait-completion", "9.7.16.6.2.1.2", "tcgen05-memory-consistency-model-wait-completion",
         "tcgen05.wait::ld / wait::st return when every prior tcgen05.ld / st of the thread "
         "completed"},
        {"inter-thread", "9.7.16.6.3", "tcgen05-memory-consistency-model-inter-thread-sync",
         "only tcgen05.fence::after_thread_sync orders later tcgen05 operations after an "
         "execution-ordering operation (a wait, a barrier, a load)"},
        {"non-pipelined-same-thread", "9.7.16.6.4.2",
         "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-same-thread",
         "mma; commit; mbarrier wait; after_thread_sync; then any tcgen05 operation"},
        {"pipelined-diff-thread", "9.7.16.6.4.3",
         "tcgen05-memory-consistency-model-canonical-sync-patterns-pipelined-diff-thread",
         "a pipelined pair across threads needs before_thread_sync, an execution-ordering "
         "operation, after_thread_sync"},
        {"non-pipelined-diff-thread", "9.7.16.6.4.4",
         "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread",
         "a non-pipelined pair across threads needs the producer to wait for completion "
         "before it synchronizes"},
        {"fence", "9.7.16.11.1", "tcgen05-special-sync-operations-fence",
         "before_thread_sync and after_thread_sync order tcgen05 operations across threads "
         "only together with an execution-ordering operation"},
        {"smem-access", "9.7.16.6.5", "tcgen05-memory-consistency-model-smem-access",
         "mma (A and B descriptors) and cp read shared memory through the async proxy; no "
         "tcgen05 instruction writes shared memory except alloc's address store"},
        {"cta-group", "9.7.16.5", "tcgen05-issue-granularity",
         "cta_group is ::1 or ::2, the same value for every tcgen05 instruction of a kernel"},
        {"tcgen05-ld", "9.7.16.8.3", "tcgen05-instructions-tcgen05-ld",
         "tcgen05.ld loads tensor memory into registers; tcgen05.st stores registers into "
         "tensor memory; neither touches shared memory"},
        {"wait", "9.7.16.8.5", "tcgen05-instructions-tcgen05-wait",
         "tcgen05.wait::ld / wait::st take no operand and have no memory effect"},
        {"commit", "9.7.16.12.1", "tcgen-async-sync-operations-commit",
         "tcgen05.commit tracks only operations issued before it"},
        {"alloc", "9.7.16.7.1",
         "tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit",
         "alloc and dealloc are synchronous; alloc's only memory effect is a weak generic store "
         "of the address to shared memory; the lifetime they give tensor memory is checked by "
         "the tmem-lifetime and tcgen05-alloc-misuse flags"},
        {"mbarrier-wait", "9.7.13.15.16",
         "parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait",
         "an mbarrier is waited on with test_wait or try_wait; there is no mbarrier.wait"},
        {"bulk", "9.7.9.25.4.1", "data-movement-and-conversion-instructions-cp-async-bulk",
         "cp.async.bulk is a bulk copy through the async proxy, not a tcgen05 instruction; it "
         "completes through an mbarrier (complete_tx) or a bulk async-group"},
    };
    return all;
}

const Rule& rule(const std::string& key) {
    for (const Rule& r : rules())
        if (r.key == key) return r;
    throw std::out_of_range("no PTX rule '" + key + "'");
}

std::string ruleUrl(const Rule& r) {
    return "https://docs.nvidia.com/cuda/parallel-thread-execution/#" + r.anchor;
}

} // namespace ptxmc::matrix
