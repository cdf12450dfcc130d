package org.topupbatch.track;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.OrderRequest;

/**
 * A row as the create-order request that places it, the same every time it is sent (a first send,
 * a re-send after a lost answer, a status check by re-sending): Digiflazz asks for exactly the same
 * request under the same ref_id. Its price limit is the row's own {@code max_price}, or else the
 * price the row was accepted at plus {@code topup.price-tolerance}, the most the price guard lets
 * it cost, so a provider that takes a limit refuses what the guard would not have sent.
 */
public final class OrderRequests {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private final BigDecimal tolerancePercent;

    public OrderRequests(BigDecimal tolerancePercent) {
        this.tolerancePercent = tolerancePercent;
    }

    public OrderRequest of(RowRecord row) {
        return new OrderRequest(row.orderRefId(), row.orderSku(), row.customerNo(), row.customerNoZone(), maxPrice(row));
    }

    Long maxPrice(RowRecord row) {
        Long ceiling = null;
        if (row.price() != null && row.price() > 0 && tolerancePercent != null) {
            ceiling = BigDecimal.valueOf(row.price()).multiply(HUNDRED.add(tolerancePercent))
                    .divide(HUNDRED, 0, RoundingMode.FLOOR).longValueExact();
        }
        Long own = row.maxPrice();
        if (own == null) {
            return ceiling;
        }
        return ceiling == null ? own : Math.min(own, ceiling);
    }
}
