// Transposes a batch of matrices with gputranspose from C++ (no Python), on the
// GPU when there is one, checks the result against ATen and its gradient.
#include <gputranspose/transpose.h>

#include <torch/torch.h>

#include <iostream>

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const auto x = torch::randn({4, 300, 500}, torch::dtype(torch::kFloat32).device(device))
                     .requires_grad_(true);

  const auto y = gputranspose::transpose(x);  // swaps the last two dims
  const bool same = torch::equal(y, x.transpose(-2, -1).contiguous());

  y.sum().backward();  // autograd registered in C++
  const bool grad_ok = torch::equal(x.grad(), torch::ones_like(x));

  const auto how = gputranspose::explain(x.detach());
  std::cout << "gputranspose " << gputranspose::version() << " on " << device << ": "
            << x.sizes() << " -> " << y.sizes() << " via " << how.path << " ("
            << how.reason << "), equal to ATen: " << std::boolalpha << same
            << ", gradient right: " << grad_ok << "\n";
  return same && grad_ok ? 0 : 1;
}
