package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The error vocabulary: what each code means to the product. */
class ProviderErrorTest {

    private static ProviderException e(String code, int status, boolean unknown) {
        return new ProviderException("create-order", code, status, unknown, null, null, null);
    }

    @Test
    void credentials_account_and_balance_stop_submission_but_never_an_unknown_outcome() {
        assertThat(e("INVALID_SIGNATURE", 401, false).stopsSubmission()).isTrue();
        assertThat(e("insufficient_balance", 400, false).stopsSubmission()).isTrue();
        assertThat(e("SOMETHING_NEW", 403, false).stopsSubmission()).as("403 without a known code").isTrue();
        assertThat(e("INVALID_SIGNATURE", 500, true).stopsSubmission()).isFalse();
        assertThat(e("PRODUCT_NOT_FOUND", 400, false).stopsSubmission()).isFalse();
    }

    @Test
    void only_a_refused_duplicate_means_the_order_exists() {
        assertThat(e("DUPLICATE_REF_ID", 409, false).meansOrderExists()).isTrue();
        assertThat(e("DUPLICATE_REF_ID", 500, true).meansOrderExists()).isFalse();
        assertThat(e("ORDER_NOT_FOUND", 404, false).meansNoSuchOrder()).isTrue();
    }

    @Test
    void transient_failures_and_rate_limits() {
        assertThat(e("TIMEOUT", 0, false).transientFailure()).isTrue();
        assertThat(e("UNKNOWN_ERROR", 502, false).transientFailure()).isTrue();
        assertThat(e("PRODUCT_NOT_FOUND", 400, false).transientFailure()).isFalse();
        assertThat(e("DAILY_LIMIT_EXCEEDED", 400, false).isRateLimited()).isTrue();
        assertThat(e("UNKNOWN_ERROR", 429, false).isRateLimited()).isTrue();
        assertThat(e("CONNECTION_FAILED", 0, false).nothingSent()).isTrue();
        assertThat(e("CONNECTION_LOST", 0, true).nothingSent()).isFalse();
        assertThat(ProviderError.of("nope")).isEmpty();
    }
}
