// The C++ API, as a LibTorch app sees it (no Python).
#include <gputranspose/transpose.h>

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

const std::vector<torch::Dtype> kDtypes = {
    torch::kBool,  torch::kUInt8,    torch::kInt8,          torch::kInt16,
    torch::kHalf,  torch::kBFloat16, torch::kFloat8_e4m3fn, torch::kInt32,
    torch::kFloat, torch::kInt64,    torch::kDouble,        torch::kComplexFloat,
    torch::kComplexDouble};

torch::Tensor random_tensor(torch::IntArrayRef sizes, torch::Dtype dtype, torch::Device device) {
  // Random bytes, so every bit pattern of every dtype appears.
  auto bytes = torch::randint(0, 256, {torch::elementSize(dtype) *
                                       c10::multiply_integers(sizes)},
                              torch::dtype(torch::kUInt8));
  if (dtype == torch::kBool) {
    bytes = bytes % 2;
  }
  return bytes.view(dtype).view(sizes).to(device);
}

void expect_transpose_matches_aten(torch::Device device) {
  const std::vector<std::vector<int64_t>> shapes = {
      {1, 1}, {1, 37}, {37, 1}, {65, 129}, {3, 17, 33}, {0, 5}, {2, 0, 3}};
  for (const auto dtype : kDtypes) {
    for (const auto& shape : shapes) {
      const auto x = random_tensor(shape, dtype, device);
      const auto y = gputranspose::transpose(x);
      const auto expected = x.transpose(-2, -1).contiguous();
      ASSERT_TRUE(y.is_contiguous());
      ASSERT_EQ(y.sizes(), expected.sizes());
      // Compare bytes: equal() on floats would call NaN != NaN.
      ASSERT_TRUE(torch::equal(y.flatten().view(torch::kUInt8),
                               expected.flatten().view(torch::kUInt8)))
          << "dtype " << dtype << " shape " << x.sizes();
    }
  }
}

bool cuda_required() {
  const char* env = std::getenv("GPUTRANSPOSE_REQUIRE_CUDA");
  return env != nullptr && std::string(env) == "1";
}

#define SKIP_WITHOUT_CUDA()                                                      \
  do {                                                                           \
    if (!torch::cuda::is_available()) {                                          \
      ASSERT_FALSE(cuda_required()) << "GPUTRANSPOSE_REQUIRE_CUDA=1 but no GPU"; \
      GTEST_SKIP() << "no CUDA device";                                          \
    }                                                                            \
  } while (0)

TEST(Transpose, MatchesAtenOnCpu) {
  expect_transpose_matches_aten(torch::kCPU);
}

TEST(Transpose, NonDefaultDimsAndLowRank) {
  const auto x = torch::randn({2, 3, 4, 5});
  EXPECT_TRUE(torch::equal(gputranspose::transpose(x, 0, 2), x.transpose(0, 2).contiguous()));
  const auto v = torch::randn({7});
  const auto copy = gputranspose::transpose(v);
  EXPECT_TRUE(torch::equal(copy, v));
  EXPECT_NE(copy.data_ptr(), v.data_ptr());
}

TEST(Transpose, OutVariantWritesInPlace) {
  const auto x = torch::randn({3, 4});
  auto out = torch::empty({4, 3});
  const void* before = out.data_ptr();
  gputranspose::transpose_out(x, -2, -1, out);
  EXPECT_EQ(out.data_ptr(), before);
  EXPECT_TRUE(torch::equal(out, x.t()));
}

TEST(Transpose, BadDimsRaiseIndexError) {
  const auto x = torch::randn({3, 4});
  EXPECT_THROW(gputranspose::transpose(x, 2, 0), c10::IndexError);
  try {
    gputranspose::transpose(x, -3, 0);
    FAIL() << "no error";
  } catch (const c10::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("gputranspose.transpose: dim0=-3"), std::string::npos);
  }
}

TEST(Transpose, AutogradFromCpp) {
  const auto x = torch::randn({3, 5}, torch::dtype(torch::kDouble).requires_grad(true));
  const auto w = torch::randn({5, 3}, torch::kDouble);
  (gputranspose::transpose(x) * w).sum().backward();
  EXPECT_TRUE(torch::equal(x.grad(), w.t()));
}

// The layout's own path (the plan); where no device chose a kernel, the path that runs.
void ExpectLayoutPath(const gputranspose::Explanation& how, const std::string& path) {
  EXPECT_EQ(how.plan_path, path);
  if (how.device < 0) EXPECT_EQ(how.path, path);
}

TEST(Transpose, ExplainNamesTheLayoutPath) {
  const auto x = torch::randn({64, 64});
  ExpectLayoutPath(gputranspose::explain(x), "tiled_contiguous");
  ExpectLayoutPath(gputranspose::explain(x.slice(1, 16)), "tiled_row_strided");
  ExpectLayoutPath(gputranspose::explain(x.t()), "memcpy");
  ExpectLayoutPath(gputranspose::explain(x.slice(1, 0, 64, 2)), "tiled_units");  // strided elements
  ExpectLayoutPath(gputranspose::explain(x.select(1, 0).slice(0, 0, 64, 2)), "memcpy");  // 2-D
  ExpectLayoutPath(gputranspose::explain(torch::randn({1}).expand({64})), "aten_fallback");
  const auto heads = torch::randn({2, 64, 8, 32});
  ExpectLayoutPath(gputranspose::explain(heads, 1, 2), "wide_elements");
  ExpectLayoutPath(gputranspose::explain(heads, 0, 2), "wide_elements");
  ExpectLayoutPath(gputranspose::explain_permute(heads, {0, 2, 3, 1}), "tiled_contiguous");
  ExpectLayoutPath(gputranspose::explain_permute(heads, {3, 1, 0, 2}), "tiled_row_strided");
}

TEST(Permute, MatchesAtenAndIsDifferentiable) {
  const auto x = torch::randn({3, 4, 5, 6}, torch::requires_grad());
  const auto y = gputranspose::permute(x, {0, 2, 3, 1});
  EXPECT_TRUE(y.is_contiguous());
  EXPECT_TRUE(torch::equal(y, x.permute({0, 2, 3, 1}).contiguous()));
  y.backward(torch::ones_like(y));
  EXPECT_TRUE(torch::equal(x.grad(), torch::ones_like(x)));
  const auto nhwc = gputranspose::contiguous(x.detach(), at::MemoryFormat::ChannelsLast);
  EXPECT_TRUE(nhwc.is_contiguous(at::MemoryFormat::ChannelsLast));
  EXPECT_TRUE(torch::equal(nhwc, x.detach()));
}

TEST(TransposeCuda, MatchesAtenOnCuda) {
  SKIP_WITHOUT_CUDA();
  expect_transpose_matches_aten(torch::kCUDA);
}

TEST(TransposeCuda, ExplainNamesTheKernelThatRuns) {
  SKIP_WITHOUT_CUDA();
  const auto x = torch::randn({1000, 700}, torch::dtype(torch::kFloat).device(torch::kCUDA));
  const auto how = gputranspose::explain(x);
  EXPECT_EQ(how.path, "tiled_contiguous");
  EXPECT_EQ(how.kernel.rfind("tiled<e=4,", 0), 0u) << how.kernel;
  EXPECT_EQ(how.device, x.device().index());
  EXPECT_GT(how.blocks, 0);
  EXPECT_GT(how.threads, 0);
}

TEST(Transpose, UnsupportedLayoutsRaiseAShortError) {
  const auto sparse = torch::randn({4, 4}).to_sparse();
  EXPECT_EQ(gputranspose::explain(sparse).path, "unsupported");
  try {
    gputranspose::transpose(sparse);
    FAIL() << "a sparse input must raise";
  } catch (const c10::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("sparse COO tensors are not supported"), std::string::npos);
  }
}

}  // namespace
