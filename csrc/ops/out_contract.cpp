#include "out_contract.h"

#include <ATen/MemoryOverlap.h>
#include <c10/util/Exception.h>

namespace gputranspose {

void check_and_prepare_out(const at::Tensor& x, const at::Tensor& view, const at::Tensor& out,
                           const char* op) {
  TORCH_CHECK(out.device() == x.device(), op, ": out is on ", out.device(), " but x is on ",
              x.device(), "; they must be on the same device");
  TORCH_CHECK(out.scalar_type() == x.scalar_type(), op, ": out has dtype ", out.scalar_type(),
              " but x has dtype ", x.scalar_type(), "; it casts nothing");
  TORCH_CHECK(out.layout() == c10::kStrided, op, ": out must be a strided (dense) tensor");
  if (!out.sym_sizes().equals(view.sym_sizes())) {
    TORCH_CHECK(out.sym_numel() == 0, op, ": out has shape ", out.sym_sizes(),
                " but the result has shape ", view.sym_sizes(),
                "; only an empty out is resized");
    out.resize__symint(view.sym_sizes());
  }
  TORCH_CHECK(out.is_contiguous(), op, ": out must be contiguous");
  // Symbolic (traced) shapes carry no addresses to compare; eager calls always check.
  // Separate storages never overlap; within one storage, a layout too complex to
  // decide (TooHard) counts as overlapping.
  const bool symbolic = x.unsafeGetTensorImpl()->has_symbolic_sizes_strides() ||
                        out.unsafeGetTensorImpl()->has_symbolic_sizes_strides();
  const bool overlaps = !symbolic && out.storage().is_alias_of(x.storage()) &&
                        at::get_overlap_status(out, x) != at::MemOverlapStatus::No;
  TORCH_CHECK(!overlaps, op, ": out overlaps x; the result must go to separate memory");
}

}  // namespace gputranspose
