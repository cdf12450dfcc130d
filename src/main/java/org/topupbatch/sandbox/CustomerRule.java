package org.topupbatch.sandbox;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** What a product accepts as customer_no and customer_no_zone; one rule per brand, named in the catalog. */
final class CustomerRule {

    private static final Pattern DIGITS_6_12 = Pattern.compile("\\d{6,12}");
    private static final Pattern DIGITS_8_12 = Pattern.compile("\\d{8,12}");
    private static final Pattern DIGITS_9_10 = Pattern.compile("\\d{9,10}");
    private static final Pattern ZONE_1_5 = Pattern.compile("\\d{1,5}");
    // Riot ID: a game name of 3 to 16 characters (no '#'), then '#' and a tag of 3 to 5 letters or digits
    private static final Pattern RIOT_ID = Pattern.compile("[^#]{3,16}#[A-Za-z0-9]{3,5}");
    private static final Pattern VOUCHER_TARGET = Pattern.compile("\\S{4,64}");
    private static final Pattern PHONE = Pattern.compile("08\\d{8,11}");
    private static final Set<String> GENSHIN_SERVERS = Set.of("asia", "america", "europe", "tw_hk_mo");

    private final String name;
    private final List<String> phonePrefixes;

    CustomerRule(String name, List<String> phonePrefixes) {
        this.name = name;
        this.phonePrefixes = List.copyOf(phonePrefixes);
        if (!List.of("mlbb", "genshin", "player-id", "riot-id", "voucher", "phone").contains(name)) {
            throw new IllegalArgumentException("unknown customer rule " + name);
        }
        if (name.equals("phone") && phonePrefixes.isEmpty()) {
            throw new IllegalArgumentException("the phone rule needs operator prefixes");
        }
    }

    String name() {
        return name;
    }

    boolean zoneRequired() {
        return name.equals("mlbb") || name.equals("genshin");
    }

    /**
     * @param zone null or blank when none was sent
     * @throws SandboxException ZONE_REQUIRED or INVALID_CUSTOMER_NO
     */
    void check(String customerNo, String zone) {
        boolean hasZone = zone != null && !zone.isBlank();
        if (zoneRequired() && !hasZone) {
            throw new SandboxException(400, "ZONE_REQUIRED", "customer_no_zone is required for this product");
        }
        switch (name) {
            case "mlbb":
                require(DIGITS_6_12.matcher(customerNo).matches(), "customer_no must be a player ID of 6 to 12 digits");
                require(ZONE_1_5.matcher(zone).matches(), "customer_no_zone must be a zone ID of 1 to 5 digits");
                break;
            case "genshin":
                require(DIGITS_9_10.matcher(customerNo).matches(), "customer_no must be a UID of 9 or 10 digits");
                require(GENSHIN_SERVERS.contains(zone), "customer_no_zone must be one of asia, america, europe, tw_hk_mo");
                break;
            case "player-id":
                require(DIGITS_8_12.matcher(customerNo).matches(), "customer_no must be a player ID of 8 to 12 digits");
                break;
            case "riot-id":
                require(RIOT_ID.matcher(customerNo).matches() && !customerNo.substring(0, customerNo.indexOf('#')).isBlank(),
                        "customer_no must be a Riot ID Name#TAG (name 3-16 characters, tag 3-5 letters or digits)");
                break;
            case "voucher":
                require(VOUCHER_TARGET.matcher(customerNo).matches(),
                        "customer_no must be 4 to 64 characters without spaces (e-mail or phone)");
                break;
            case "phone":
                require(PHONE.matcher(customerNo).matches(), "customer_no must be a phone number of 10 to 13 digits starting with 08");
                require(phonePrefixes.contains(customerNo.substring(0, 4)), "customer_no is not a number of this operator");
                break;
            default:
                throw new IllegalStateException(name);
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new SandboxException(400, "INVALID_CUSTOMER_NO", message);
        }
    }
}
