package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import org.topupbatch.batch.CustomerCheck;
import org.topupbatch.batch.CustomerRules;

/**
 * The client's customer rules are never stricter than the provider: for every product of the
 * sandbox catalog, customer numbers and zones are generated in the forms real users write (and
 * their usual mistakes), and every pair the sandbox's own rules accept must pass the client's
 * validation. The two sides share no code, so a value one of them misjudges shows up here.
 */
class CustomerFormsPropertyTest {

    static final List<SandboxProduct> PRODUCTS = SandboxCatalog.load(new ObjectMapper()).all();
    static final CustomerRules CLIENT = CustomerRules.loadDefault();

    record Attempt(SandboxProduct product, String customerNo, String zone) {
    }

    @Property(tries = 20_000)
    @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
    void everyCustomerTheSandboxAcceptsPassesTheClientsRules(@ForAll("attempts") Attempt a) {
        boolean sandboxAccepts = sandboxAccepts(a);
        Statistics.label("sandbox").collect(sandboxAccepts ? "accepts" : "refuses");
        Statistics.label("product").collect(a.product().sku());
        if (sandboxAccepts) {
            CustomerCheck client = CLIENT.check(a.product().brand(), a.customerNo(), a.zone());
            assertThat(client.reason())
                    .as("%s customer_no '%s' zone '%s' is taken by the sandbox", a.product().sku(), a.customerNo(), a.zone())
                    .isNull();
        }
        Statistics.label("sandbox").coverage(c -> c.check("accepts").percentage(p -> p > 15));
        Statistics.label("product").coverage(c -> PRODUCTS.forEach(p -> c.check(p.sku()).count(n -> n > 0)));
    }

    private static boolean sandboxAccepts(Attempt a) {
        try {
            a.product().rule().check(a.customerNo(), a.zone().isEmpty() ? null : a.zone());
            return true;
        } catch (SandboxException refused) {
            return false;
        }
    }

    @Provide
    Arbitrary<Attempt> attempts() {
        return Arbitraries.of(PRODUCTS).flatMap(product -> Combinators.combine(
                        Arbitraries.frequencyOf(Tuple.of(8, customerNumber(product.rule().name())), Tuple.of(1, typed())),
                        zone())
                .as((no, zone) -> new Attempt(product, no.strip(), zone.strip())));
    }

    /** How customers of each kind of product write their number. */
    private static Arbitrary<String> customerNumber(String rule) {
        return switch (rule) {
            case "phone" -> phone();
            case "mlbb" -> Combinators.combine(digits(4, 13), Arbitraries.of("", " ", "(", " (", "("),
                    digits(0, 6), Arbitraries.of("", ")")).as((id, open, zone, close) ->
                    open.isBlank() ? id : id + open + zone + close);
            case "genshin" -> digits(8, 11);
            case "player-id" -> digits(6, 14);
            case "riot-id" -> Combinators.combine(Arbitraries.strings().withCharRange('a', 'z').withChars(' ', 'Ä', '_')
                            .ofMinLength(1).ofMaxLength(18), Arbitraries.of("#", "", "# ", " #"),
                    Arbitraries.strings().alpha().numeric().ofMinLength(2).ofMaxLength(6))
                    .as((name, hash, tag) -> name + hash + tag);
            case "voucher" -> Arbitraries.oneOf(
                    Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12).map(u -> u + "@example.com"),
                    phone(), Arbitraries.strings().withCharRange('a', 'z').withChars('.', '-', ' ').ofMinLength(1).ofMaxLength(8));
            default -> throw new IllegalStateException(rule);
        };
    }

    /** 08…, 628…, +628…, with or without spaces and dashes, too short or long, or with the 0 lost. */
    private static Arbitrary<String> phone() {
        Arbitrary<String> subscriber = Combinators.combine(Arbitraries.integers().between(10, 99), digits(6, 11))
                .as((range, rest) -> "8" + range + rest);
        return Combinators.combine(Arbitraries.of("0", "62", "+62", "", "+62 ", "0"), subscriber, Arbitraries.of("", " ", "-"))
                .as((start, number, separator) -> start + (separator.isEmpty() ? number
                        : number.substring(0, 3) + separator + number.substring(3, 7) + separator + number.substring(7)));
    }

    /** Anything at all a person or an export could leave in the cell. */
    private static Arbitrary<String> typed() {
        return Arbitraries.strings().all().ofMaxLength(20);
    }

    private static Arbitrary<String> zone() {
        Arbitrary<String> server = Arbitraries.of("os_asia", "os_usa", "os_euro", "os_cht", "asia", "america", "europe",
                        "tw/hk/mo", "tw_hk_mo", "tw, hk, mo", "mars", "os_mars")
                .flatMap(name -> Arbitraries.of(name, name.toUpperCase(Locale.ROOT),
                        Character.toUpperCase(name.charAt(0)) + name.substring(1)));
        return Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.just(""), digits(1, 6), server,
                digits(1, 5).map(z -> "(" + z + ")"), typed());
    }

    private static Arbitrary<String> digits(int min, int max) {
        return Arbitraries.strings().numeric().ofMinLength(min).ofMaxLength(max);
    }
}
