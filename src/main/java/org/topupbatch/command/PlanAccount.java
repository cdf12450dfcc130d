package org.topupbatch.command;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.Product;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.text.OneLine;

/**
 * One account of a {@code plan}, in the list of the accounts it plans for: the one account of
 * topup.base-url (no name, a list of one) or each of topup.providers. Holds the account's provider
 * session for the whole plan, what the account answered (limits, balance, price list, or why it could
 * not be asked) and the rows the plan gives it.
 */
final class PlanAccount implements AutoCloseable {

    final String name;
    final String dialect;
    final String baseUrl;
    private final Supplier<ProviderSession> opening;
    /** Open from {@link #ask} to the end of the plan: a lone account's balance and price list are read as the file is. */
    ProviderSession session;
    AccountLimits limits;
    long balance;
    /** By SKU; read before the file only where rows are routed across accounts. */
    Map<String, Product> priceList;
    /** Why the account could not be asked (one line, no secrets), or null. */
    String unreachable;
    long rows;
    long cost;

    PlanAccount(String name, String dialect, String baseUrl, Supplier<ProviderSession> opening) {
        this.name = name;
        this.dialect = dialect;
        this.baseUrl = baseUrl;
        this.opening = opening;
    }

    /**
     * Asks the account what the plan needs before the file is read: its limits and, when rows are routed
     * ({@code everything}), its balance and price list too. A lone account's failure is the plan's
     * (thrown, shown by the command frame as it always was); one of several accounts' is kept in
     * {@link #unreachable}, and that account takes no row.
     */
    void ask(boolean everything) {
        try {
            session = opening.get();
            limits = session.limits();
            if (everything) {
                balance = session.gateway.checkBalance().balance();
                Map<String, Product> bySku = new HashMap<>();
                for (Product p : session.gateway.priceList()) {
                    bySku.putIfAbsent(p.sku(), p);
                }
                priceList = bySku;
            }
        } catch (ProviderException e) {
            if (name == null) {
                throw e;
            }
            unreachable = e.stopsSubmission() ? "it refused the credentials (" + e.code() + ")"
                    : OneLine.of(e.getMessage(), 300);
        } catch (RuntimeException e) {
            if (name == null) {
                throw e;
            }
            unreachable = OneLine.of(String.valueOf(e.getMessage()), 300);
        }
    }

    /** Each reached account's price list by its name, for the routing. */
    static Map<String, Map<String, Product>> priceLists(List<PlanAccount> accounts) {
        Map<String, Map<String, Product>> lists = new HashMap<>();
        accounts.stream().filter(a -> a.priceList != null).forEach(a -> lists.put(a.name, a.priceList));
        return lists;
    }

    static List<String> names(List<PlanAccount> accounts) {
        List<String> names = new ArrayList<>();
        accounts.forEach(a -> names.add(a.name));
        return names;
    }

    @Override
    public void close() {
        if (session != null) {
            session.close();
        }
    }
}
