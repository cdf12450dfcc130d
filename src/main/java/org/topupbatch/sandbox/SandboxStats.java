package org.topupbatch.sandbox;

import java.util.Map;

/**
 * Counters of the sandbox since start.
 *
 * @param requestsPerOperation every request received per operation ({@code check-balance, price-list, create-order,
 *                             order-history, profile, check-order}), whatever its answer
 * @param rateLimited          number of 429 answers (per-minute and per-day)
 * @param busiestWindow        the most counted requests of one api_key in any rolling 60 s window so far
 * @param totalRequests        every request received under {@code /v1/}, including unknown paths
 * @param gatewayRefused       429 answers of the per-second gateway (knob gateway-limit): never reached the provider
 */
public record SandboxStats(Map<String, Long> requestsPerOperation, long rateLimited, long busiestWindow, long totalRequests,
                           long gatewayRefused) {

    public SandboxStats(Map<String, Long> requestsPerOperation, long rateLimited, long busiestWindow, long totalRequests) {
        this(requestsPerOperation, rateLimited, busiestWindow, totalRequests, 0);
    }
}
