package org.topupbatch.provider;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** The profile record (interface 2.5). */
public record Profile(String id, String name, String email, String phone, String tier, long balance,
                      long totalOrders, long totalSuccess, BigDecimal successRate, Instant joinedAt,
                      ApiUsage apiUsage, String webhookUrl, List<String> ipWhitelist) {
}
