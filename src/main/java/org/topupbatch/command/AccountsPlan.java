package org.topupbatch.command;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.intake.BatchCheck;
import org.topupbatch.intake.BatchRow;
import org.topupbatch.intake.CustomerRules;
import org.topupbatch.intake.PlanSummary;
import org.topupbatch.intake.PlanWriter;
import org.topupbatch.intake.RowDecision;
import org.topupbatch.journal.Journal;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.AccountsCatalog;
import org.topupbatch.provider.ProductMap;
import org.topupbatch.provider.Product;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.Routing;
import org.topupbatch.run.ExitCode;
import org.topupbatch.settings.ProviderAccount;
import org.topupbatch.settings.Settings;
import org.topupbatch.text.OneLine;
import org.topupbatch.text.Rupiah;

/**
 * {@code plan FILE} with several accounts (topup.providers, docs/accounts-and-dialects.md#several-accounts): the intake's
 * own checks on the file, then every acceptable row routed to the account that would take it first.
 * Each account is asked with its own dialect, credentials and rate budget for its limits, balance and
 * price list; one that cannot be asked counts as having no product, and the plan says so. Prints each
 * row with its account (or why no account can take it) as it goes, then per account its rows, their
 * cost, its balance and whether the balance covers them, and the time at its rate.
 *
 * <p>Exit 0 when every row goes to an account whose balance covers its share; 2 when a row is
 * rejected or no account can take it, a balance falls short or an account could not be asked; 1 when no
 * account could be asked at all.
 */
final class AccountsPlan {

    /** Big enough that the intake's balance policy never turns a row down: balances are judged per account below. */
    private static final long EVERY_BALANCE = Long.MAX_VALUE / 4;

    private final PrintStream out;
    private final Clock clock;

    AccountsPlan(PrintStream out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    /** What one account answered, and what the plan gives it. */
    private static final class Share {
        final ProviderAccount account;
        String unreachable;
        AccountLimits limits;
        long balance;
        Map<String, Product> priceList;
        long rows;
        long cost;

        Share(ProviderAccount account) {
            this.account = account;
        }
    }

    int plan(Path file, Settings settings, CustomerRules rules, Journal journal) throws IOException {
        List<String> names = settings.accounts().stream().map(ProviderAccount::name).toList();
        ProductMap map = settings.productMap() == null ? ProductMap.identity(names)
                : ProductMap.load(settings.productMap(), names);
        Map<String, Share> shares = new LinkedHashMap<>();
        for (ProviderAccount account : settings.accounts()) {
            shares.put(account.name(), ask(settings, account, journal));
        }
        if (shares.values().stream().allMatch(s -> s.unreachable != null)) {
            throw new CommandFailure("no account could be asked: " + String.join("; ",
                    shares.values().stream().map(s -> s.account.name() + ": " + s.unreachable).toList()));
        }
        Map<String, Map<String, Product>> priceLists = new HashMap<>();
        shares.values().stream().filter(s -> s.priceList != null).forEach(s -> priceLists.put(s.account.name(), s.priceList));

        out.println("Plan of " + OneLine.of(file.getFileName().toString()) + " (nothing is ordered; the file stays where it is),"
                + " routed across " + names.size() + " accounts: " + String.join(", ", names));
        out.println("Map:      " + (settings.productMap() == null
                ? "none: every account sells every product under its own code, in the order of topup.providers"
                : OneLine.of(settings.productMap().toString()) + ", " + map.mappedProducts() + " products mapped; the others"
                        + " under their own code at every account, in the order of topup.providers"));
        for (Share s : shares.values()) {
            if (s.unreachable != null) {
                out.println("  account " + s.account.name() + " could not be asked: " + s.unreachable + "; it takes no row");
            }
        }
        long[] unroutable = {0};
        long[] warnings = {0};
        PlanSummary summary = new BatchCheck(new AccountsCatalog(map, priceLists), rules, settings.balancePolicy(),
                settings.inputCharset(), settings.repeatWindow(), Clock.systemUTC())
                .check(file, (delimiter, encoding, extras) -> {
                    out.println("Read as:  " + encoding.shown() + ", delimiter " + (delimiter == '\t' ? "tab" : "'" + delimiter + "'"));
                    return new BatchCheck.Opened(new PlanWriter(journal::ordersAmong, journal::repeatsAmong), EVERY_BALANCE);
                }, (row, decision, rejection) -> {
                    if (rejection != null) {
                        out.println("  rejected  line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(rejection, 500));
                    } else {
                        Routing.Decision routed = Routing.route(map.routeFor(row.productSku()), decision.maxPrice(), priceLists);
                        if (routed.routed()) {
                            Routing.Candidate to = routed.first();
                            Share share = shares.get(to.account());
                            share.rows++;
                            share.cost += to.price();
                            out.println("  to " + to.account() + "  line " + row.line() + "  ref_id " + shown(row) + ": "
                                    + OneLine.of(row.productSku(), 100) + (to.sku().equals(row.productSku()) ? "" : " as " + to.sku())
                                    + ", " + Rupiah.format(to.price()));
                        } else {
                            unroutable[0]++;
                            out.println("  no account  line " + row.line() + "  ref_id " + shown(row) + ": "
                                    + OneLine.of(routed.reason(), 500));
                        }
                    }
                    warnings[0] += warn(row, decision);
                });
        long routedRows = summary.accepted() - unroutable[0];
        long cost = shares.values().stream().mapToLong(s -> s.cost).sum();
        out.println();
        out.println("Rows:     " + summary.rows() + " read, " + routedRows + " acceptable, " + summary.rejected() + " rejected, "
                + unroutable[0] + " no account can take" + (warnings[0] > 0 ? ", " + warnings[0] + " with warnings" : ""));
        out.println("Cost:     " + Rupiah.format(cost) + " for the acceptable rows at the prices of the accounts they go to");
        boolean short_ = false;
        for (Share s : shares.values()) {
            out.println("Account " + s.account.name() + " (" + s.account.dialect() + ", " + s.account.baseUrl() + "): "
                    + (s.unreachable != null ? "could not be asked; no row" : rows(s.rows) + ", " + Rupiah.format(s.cost)));
            if (s.unreachable != null) {
                continue;
            }
            out.println("  Balance:  " + Rupiah.format(s.balance) + "; " + (s.cost <= s.balance
                    ? "it covers them (" + Rupiah.format(s.balance - s.cost) + " left)"
                    : "it does NOT cover them: " + Rupiah.format(s.cost - s.balance) + " short"));
            out.println("  Time:     " + PlanCommand.duration(s.rows, s.limits));
            short_ |= s.cost > s.balance;
        }
        boolean attention = summary.rejected() > 0 || unroutable[0] > 0 || short_
                || shares.values().stream().anyMatch(s -> s.unreachable != null);
        return (attention ? ExitCode.ATTENTION : ExitCode.OK).code();
    }

    /** The account's limits, balance and price list; what went wrong instead, in one line without secrets. */
    private Share ask(Settings settings, ProviderAccount account, Journal journal) {
        Share share = new Share(account);
        try (ProviderSession session = ProviderSession.forAccount(settings, account, journal, clock)) {
            share.limits = session.limits();
            share.balance = session.gateway.checkBalance().balance();
            Map<String, Product> bySku = new HashMap<>();
            for (Product p : session.gateway.priceList()) {
                bySku.putIfAbsent(p.sku(), p);
            }
            share.priceList = bySku;
        } catch (ProviderException e) {
            share.unreachable = e.stopsSubmission() ? "it refused the credentials (" + e.code() + ")" : OneLine.of(e.getMessage(), 300);
        } catch (RuntimeException e) {
            share.unreachable = OneLine.of(String.valueOf(e.getMessage()), 300);
        }
        return share;
    }

    private static String rows(long n) {
        return n + (n == 1 ? " row" : " rows");
    }

    private static String shown(BatchRow row) {
        return row.refId().isEmpty() ? "(empty)" : OneLine.of(row.refId());
    }

    private int warn(BatchRow row, RowDecision decision) {
        for (String warning : decision.warnings()) {
            out.println("  warning   line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(warning, 500));
        }
        return decision.warnings().isEmpty() ? 0 : 1;
    }
}
