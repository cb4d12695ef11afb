// The rules, paraphrased from the reference notes' reading of the PTX ISA's tcgen05 chapter.
#include "matrix/Rules.hpp"

#include <stdexcept>

namespace ptxmc::matrix {

const std::vector<Rule>& rules() {
    static const std::vector<Rule> all = {
        {"async", ptx::Sec::Tcgen05AsyncOperations,
         "asynchronous tcgen05 operations (mma, cp, shift, ld, st) are not ordered with each "
         "other unless pipelined; synchronous ones are ordered in their thread"},
        {"pipelined", ptx::Sec::Tcgen05Pipelined,
         "the thirteen pairs of the 9.4 list, each between the operand accesses it names "
         "(P1-P3 an mma's A reads before a later mma's D writes, a cp's or a shift's writes; "
         "P4-P6 C and D of mma with the same accumulator and shape; P7-P9 cp and shift writes "
         "before an mma's A reads; P10 shift->cp.4x256b; P11-P13 st->ld, st->st, ld->st), "
         "execute in issue order, and only within one warp"},
        {"mbarrier-completion", ptx::Sec::Tcgen05MbarrierCompletion,
         "tcgen05.commit arrives when the prior mma, cp and shift of its thread complete; it "
         "tracks no ld or st"},
        {"wait-completion", ptx::Sec::Tcgen05WaitCompletion,
         "tcgen05.wait::ld / wait::st return when every prior tcgen05.ld / st of the thread "
         "completed"},
        {"inter-thread", ptx::Sec::Tcgen05InterThreadSync,
         "only tcgen05.fence::after_thread_sync orders later tcgen05 operations after an "
         "execution-ordering operation (a wait, a barrier, a load)"},
        {"non-pipelined-same-thread", ptx::Sec::Tcgen05NonPipelinedSameThread,
         "mma; commit; mbarrier wait; after_thread_sync; then any tcgen05 operation"},
        {"pipelined-diff-thread", ptx::Sec::Tcgen05PipelinedDiffThread,
         "a pipelined pair across threads of one warp needs before_thread_sync, an "
         "execution-ordering operation, after_thread_sync; instructions of different warps "
         "are never pipelined"},
        {"non-pipelined-diff-thread", ptx::Sec::Tcgen05NonPipelinedDiffThread,
         "a non-pipelined pair across threads needs the producer to wait for completion "
         "before it synchronizes"},
        {"fence", ptx::Sec::Tcgen05Fence,
         "before_thread_sync and after_thread_sync order tcgen05 operations across threads "
         "only together with an execution-ordering operation"},
        {"smem-access", ptx::Sec::Tcgen05SmemAccess,
         "mma (A and B descriptors) and cp read shared memory through the async proxy; no "
         "tcgen05 instruction writes shared memory except alloc's address store"},
        {"cta-group", ptx::Sec::Tcgen05IssueGranularity,
         "cta_group is ::1 or ::2, the same value for every tcgen05 instruction of a kernel"},
        {"tcgen05-ld", ptx::Sec::Tcgen05Ld,
         "tcgen05.ld loads tensor memory into registers; tcgen05.st stores registers into "
         "tensor memory; neither touches shared memory"},
        {"wait", ptx::Sec::Tcgen05Wait,
         "tcgen05.wait::ld / wait::st take no operand and have no memory effect"},
        {"commit", ptx::Sec::Tcgen05Commit,
         "tcgen05.commit tracks only operations issued before it"},
        {"alloc", ptx::Sec::Tcgen05Alloc,
         "alloc and dealloc are synchronous; alloc's only memory effect is a weak generic store "
         "of the address to shared memory; the lifetime they give tensor memory is checked by "
         "the tmem-lifetime and tcgen05-alloc-misuse flags"},
        {"mbarrier-wait", ptx::Sec::MbarrierTestWaitTryWait,
         "an mbarrier is waited on with test_wait or try_wait; there is no mbarrier.wait"},
        {"bulk", ptx::Sec::CpAsyncBulk,
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
