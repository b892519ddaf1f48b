// The simulator's randomness: exact at the ends, in range, with the means it promises, and one
// sequence per seed.
#include <gtest/gtest.h>

#include "kube/simulator/simulated_cluster.hpp"
#include "tests/support/simulator_fixture.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using namespace fixture;

TEST(SimulatorRandom, negative_log_is_exact_at_the_ends_and_monotonic) {
  EXPECT_EQ(negative_log_q32(UINT64_MAX), 0u);
  const double ln2_63 = 43.66827237527655;  // -ln(2^-63)
  EXPECT_NEAR(static_cast<double>(negative_log_q32(0)) / 4294967296.0, ln2_63, 1e-6);
  EXPECT_NEAR(static_cast<double>(negative_log_q32(UINT64_MAX / 2)) / 4294967296.0, 0.6931471805599453, 1e-6);
  uint64_t previous = UINT64_MAX;
  for (uint64_t x = 1; x < (uint64_t{1} << 63); x = x * 3 + 1) {
    EXPECT_LE(negative_log_q32(x), previous);
    previous = negative_log_q32(x);
  }
}

TEST(SimulatorRandom, draws_stay_in_range_and_exponentials_have_their_mean) {
  SimRandom r(42);
  int64_t sum = 0;
  constexpr int kDraws = 200'000;
  for (int i = 0; i < kDraws; ++i) {
    const int64_t u = r.uniform(-3, 5);
    ASSERT_GE(u, -3);
    ASSERT_LE(u, 5);
    sum += r.exponential(1'000'000);
  }
  EXPECT_NEAR(static_cast<double>(sum) / kDraws, 1'000'000.0, 10'000.0);
  const std::string uuid = r.uuid();
  EXPECT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[14], '4');
}

TEST(SimulatorRandom, one_seed_gives_one_sequence) {
  SimRandom a(7), b(7);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.exponential(12345), b.exponential(12345));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
