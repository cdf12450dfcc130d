package org.topupbatch.provider;

import java.util.List;
import java.util.Optional;

/**
 * The provider's operations as typed Java calls (SKELETON: to be implemented).
 * Every request passes the {@link RequestGate} once; failures are {@link ProviderException}s.
 */
public interface ProviderClient {

    String CHECK_BALANCE = "check-balance";
    String PRICE_LIST = "price-list";
    String CREATE_ORDER = "create-order";
    String ORDER_HISTORY = "order-history";
    String PROFILE = "profile";
    String CHECK_ORDER = "check-order";

    Balance checkBalance();

    /** category and brand may be null (no filter). */
    List<Product> priceList(String category, String brand);

    Order createOrder(OrderRequest request);

    OrderHistoryPage orderHistory(HistoryQuery query);

    Profile profile();

    /**
     * The check-order extension. Empty when the provider does not have the endpoint (it answered
     * 404/405/501 without an order-not-found code); after the first such answer it is not asked
     * again. Throws a ProviderException with code ORDER_NOT_FOUND when the order does not exist.
     */
    Optional<Order> checkOrder(String refId);

    /** Whether check-order is (still believed) available. */
    boolean checkOrderSupported();

    /** How the provider's API is spelt. */
    default Dialect dialect() {
        return Dialect.TOPUP;
    }
}
