// Runs an AOTInductor package whose graph calls gputranspose.transpose, from C++:
//   aoti_run block.pt2        (made by torch._inductor.aoti_compile_and_package from
//                              a module computing transpose(x * 2) + 1, see tests)
// The package calls the op through the dispatcher; linking gputranspose registers it.
#include <gputranspose/transpose.h>

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/torch.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " <package.pt2>\n";
    return 2;
  }
  torch::inductor::AOTIModelPackageLoader loader(argv[1]);
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  bool ok = true;
  for (int64_t batch : {1, 4, 9}) {
    const auto x = torch::randn({batch, 6, 8}, torch::TensorOptions().device(device));
    const auto y = loader.run({x})[0];
    const auto expected = gputranspose::transpose(x * 2) + 1;
    ok = ok && torch::equal(y, expected);
  }
  std::cout << "AOTInductor package run from C++ on " << device << ", equal to eager: "
            << std::boolalpha << ok << "\n";
  return ok ? 0 : 1;
}
