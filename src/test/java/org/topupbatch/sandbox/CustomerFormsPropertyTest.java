package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.topupbatch.intake.CustomerCheck;
import org.topupbatch.intake.CustomerRules;

/**
 * The client's customer rules are never stricter than the provider: for every product of the
 * sandbox catalog, customer numbers and zones are generated in the forms real users write (and
 * their usual mistakes), and every pair the sandbox's own rules accept must pass the client's
 * validation. The two sides share no code, so a value one of them misjudges shows up here.
 *
 * <p>A seeded generator of our own (no property-testing library): the seed is printed and can be
 * fixed with {@code -Dcustomer-forms.seed=N} to replay a failure.
 */
class CustomerFormsPropertyTest {

    private static final int TRIES = 20_000;
    static final List<SandboxProduct> PRODUCTS = SandboxCatalog.load(new ObjectMapper()).all();
    static final CustomerRules CLIENT = CustomerRules.loadDefault();

    record Attempt(SandboxProduct product, String customerNo, String zone) {
    }

    private final long seed = Long.getLong("customer-forms.seed", System.nanoTime());
    private final Random random = new Random(seed);

    @Test
    void everyCustomerTheSandboxAcceptsPassesTheClientsRules() {
        System.out.println("CustomerFormsPropertyTest seed " + seed + " (replay: -Dcustomer-forms.seed=" + seed + ")");
        Map<String, Integer> triedPerProduct = new HashMap<>();
        int accepted = 0;
        List<String> counterexamples = new ArrayList<>();
        for (int i = 0; i < TRIES; i++) {
            Attempt a = attempt();
            triedPerProduct.merge(a.product().sku(), 1, Integer::sum);
            if (!sandboxAccepts(a)) {
                continue;
            }
            accepted++;
            CustomerCheck client = CLIENT.check(a.product().brand(), a.customerNo(), a.zone());
            if (client.reason() != null && counterexamples.size() < 10) {
                counterexamples.add(a.product().sku() + " customer_no '" + a.customerNo() + "' zone '" + a.zone()
                        + "': " + client.reason());
            }
        }
        assertThat(counterexamples).as("values the sandbox takes but the client rejects (seed %d)", seed).isEmpty();
        // the generator must really reach every product and produce enough values the provider takes
        assertThat(triedPerProduct.keySet()).hasSize(PRODUCTS.size());
        assertThat(accepted).as("values the sandbox accepted of %d", TRIES).isGreaterThan(TRIES * 15 / 100);
    }

    private static boolean sandboxAccepts(Attempt a) {
        try {
            a.product().rule().check(a.customerNo(), a.zone().isEmpty() ? null : a.zone());
            return true;
        } catch (SandboxException refused) {
            return false;
        }
    }

    private Attempt attempt() {
        SandboxProduct product = pick(PRODUCTS);
        String no = random.nextInt(9) < 8 ? customerNumber(product.rule().name()) : typed();
        return new Attempt(product, no.strip(), zone().strip());
    }

    /** How customers of each kind of product write their number. */
    private String customerNumber(String rule) {
        return switch (rule) {
            case "phone" -> phone();
            case "mlbb" -> {
                String id = digits(4, 13);
                String open = pick(List.of("", " ", "(", " (", "("));
                yield open.isBlank() ? id : id + open + digits(0, 6) + pick(List.of("", ")"));
            }
            case "genshin" -> digits(8, 11);
            case "player-id" -> digits(6, 14);
            case "riot-id" -> chars("abcdefghijklmnopqrstuvwxyz Ä_", 1, 18) + pick(List.of("#", "", "# ", " #"))
                    + chars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 2, 6);
            case "voucher" -> oneOf(
                    () -> chars("abcdefghijklmnopqrstuvwxyz", 1, 12) + "@example.com",
                    this::phone,
                    () -> chars("abcdefghijklmnopqrstuvwxyz.- ", 1, 8));
            default -> throw new IllegalStateException(rule);
        };
    }

    /** 08…, 628…, +628…, with or without spaces and dashes, too short or long, or with the 0 lost. */
    private String phone() {
        String number = "8" + (10 + random.nextInt(90)) + digits(6, 11);
        String start = pick(List.of("0", "62", "+62", "", "+62 ", "0"));
        String separator = pick(List.of("", " ", "-"));
        return start + (separator.isEmpty() ? number
                : number.substring(0, 3) + separator + number.substring(3, 7) + separator + number.substring(7));
    }

    /** Anything at all a person or an export could leave in the cell, control characters included. */
    private String typed() {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(21);
        for (int i = 0; i < length; i++) {
            s.appendCodePoint(random.nextInt(4) == 0 ? random.nextInt(0x2100) : 0x20 + random.nextInt(0x5f));
        }
        return s.toString();
    }

    private String zone() {
        return oneOf(() -> "", () -> "", () -> digits(1, 6), () -> {
            String name = pick(List.of("os_asia", "os_usa", "os_euro", "os_cht", "asia", "america", "europe",
                    "tw/hk/mo", "tw_hk_mo", "tw, hk, mo", "mars", "os_mars"));
            return pick(List.of(name, name.toUpperCase(Locale.ROOT), Character.toUpperCase(name.charAt(0)) + name.substring(1)));
        }, () -> "(" + digits(1, 5) + ")", this::typed);
    }

    private String digits(int min, int max) {
        return chars("0123456789", min, max);
    }

    private String chars(String alphabet, int min, int max) {
        StringBuilder s = new StringBuilder();
        int length = min + random.nextInt(max - min + 1);
        for (int i = 0; i < length; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    @SafeVarargs
    private <T> T oneOf(Supplier<T>... choices) {
        return choices[random.nextInt(choices.length)].get();
    }
}
