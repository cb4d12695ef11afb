// A bulk copy's .report_mechanism: the report-on its inspection of the copied data may issue.
#pragma once

#include "lower/Lowerer.hpp"
#include "ptx/Insn.hpp"

#include <vector>

namespace ptxmc::lower {

/**
 * Whether the copy's inspection matches (9.4, {AsyncCopyReportMechanisms}): a value nonzero
 * where it issues a report-on operation on its mbarrier, null for `.mbarrier::report::disabled`.
 * `reads` are the source reads of the copy's cells, `cellBytes` each (at most 4), `size` bytes in
 * all; `mbarriers` the objects it completes on, each of which must be initialised with
 * `.layout::v1` only.
 */
ir::ValuePtr copyReport(Lowerer& l, ptx::ReportMechanism mechanism, const std::vector<int>& reads,
                        int cellBytes, std::int64_t size, const std::vector<Address>& mbarriers);

} // namespace ptxmc::lower
