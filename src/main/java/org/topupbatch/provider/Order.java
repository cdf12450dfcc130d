package org.topupbatch.provider;

/**
 * An order as create-order or check-order answers it (interface 2.2). Numbers the provider
 * left out are null rather than zero so that nobody mistakes "not said" for "free".
 */
public record Order(String refId, String productSku, String customerNo, OrderStatus status,
                    String serialNumber, Long price, Long balanceBefore, Long balanceAfter,
                    String message) {
}
