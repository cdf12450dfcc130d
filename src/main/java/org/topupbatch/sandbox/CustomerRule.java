package org.topupbatch.sandbox;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a product accepts as customer_no and customer_no_zone; one rule per brand, named in the
 * catalog. It models a real provider: it takes every form customers really write (phone numbers as
 * 08…, 628… or +628…; Genshin server names as the game or the players write them; a Mobile Legends
 * zone written inside customer_no) and ignores a zone sent for a product that uses none, but it
 * refuses what is truly invalid. Written apart from the client's customer rules on purpose: two
 * independent readings of the same facts catch what one shared mistake would hide.
 */
final class CustomerRule {

    private static final int MAX_LENGTH = 64;
    private static final Pattern MLBB_ID = Pattern.compile("(\\d{6,12})(?: ?\\((\\d{1,5})\\))?");
    private static final Pattern MLBB_ZONE = Pattern.compile("\\d{1,5}");
    private static final Pattern PLAYER_ID = Pattern.compile("\\d{8,12}");
    private static final Pattern GENSHIN_UID = Pattern.compile("\\d{9,10}");
    // the game's own server names, and what players call them
    private static final Set<String> GENSHIN_SERVERS = Set.of("os_asia", "os_usa", "os_euro", "os_cht",
            "asia", "america", "europe", "tw/hk/mo", "tw_hk_mo", "tw, hk, mo", "tw-hk-mo");
    // Riot ID: a game name of 3 to 16 characters (no '#', no space at either end), '#', a tag of 3 to 5 letters or digits
    private static final Pattern RIOT_ID = Pattern.compile("([^#]{3,16})#[A-Za-z0-9]{3,5}");
    private static final Pattern VOUCHER_TARGET = Pattern.compile("\\S{4,64}");
    // the subscriber part after the 0 / 62 / +62 of an Indonesian mobile number: 8 and 8 to 11 more digits
    private static final Pattern PHONE = Pattern.compile("(?:0|62|\\+62)(8\\d{8,11})");

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

    /**
     * @param zone null or blank when none was sent
     * @throws SandboxException ZONE_REQUIRED or INVALID_CUSTOMER_NO
     */
    void check(String customerNo, String zone) {
        boolean hasZone = zone != null && !zone.isBlank();
        require(customerNo.length() <= MAX_LENGTH && customerNo.chars().noneMatch(Character::isISOControl)
                && (!hasZone || zone.chars().noneMatch(Character::isISOControl)), "customer_no is not valid");
        switch (name) {
            case "mlbb" -> checkMobileLegends(customerNo, hasZone ? zone : null);
            case "genshin" -> {
                requireZone(hasZone);
                require(GENSHIN_UID.matcher(customerNo).matches(), "customer_no must be a UID of 9 or 10 digits");
                require(GENSHIN_SERVERS.contains(zone.toLowerCase(Locale.ROOT)),
                        "customer_no_zone must be a server: os_asia, os_usa, os_euro, os_cht (or Asia, America, Europe, TW/HK/MO)");
            }
            case "player-id" -> require(PLAYER_ID.matcher(customerNo).matches(), "customer_no must be a player ID of 8 to 12 digits");
            case "riot-id" -> {
                Matcher riot = RIOT_ID.matcher(customerNo);
                require(riot.matches() && riot.group(1).strip().equals(riot.group(1)),
                        "customer_no must be a Riot ID Name#TAG (name 3-16 characters, tag 3-5 letters or digits)");
            }
            case "voucher" -> require(VOUCHER_TARGET.matcher(customerNo).matches(),
                    "customer_no must be 4 to 64 characters without spaces (e-mail or phone)");
            case "phone" -> {
                Matcher phone = PHONE.matcher(customerNo);
                require(phone.matches(), "customer_no must be a mobile number written 08..., 628... or +628... (10 to 13 digits as 08...)");
                String national = "0" + phone.group(1);
                require(phonePrefixes.stream().anyMatch(national::startsWith), "customer_no is not a number of this operator");
            }
            default -> throw new IllegalStateException(name);
        }
    }

    /** The zone may come in its own field or inside customer_no, "123456789 (2012)". */
    private static void checkMobileLegends(String customerNo, String zone) {
        Matcher id = MLBB_ID.matcher(customerNo);
        boolean idValid = id.matches();
        requireZone(zone != null || (idValid && id.group(2) != null));
        require(idValid, "customer_no must be a player ID of 6 to 12 digits, or the ID with its zone: 123456789 (2012)");
        require(zone == null || MLBB_ZONE.matcher(zone).matches(), "customer_no_zone must be a zone ID of 1 to 5 digits");
    }

    private static void requireZone(boolean present) {
        if (!present) {
            throw new SandboxException(400, "ZONE_REQUIRED", "customer_no_zone is required for this product");
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new SandboxException(400, "INVALID_CUSTOMER_NO", message);
        }
    }
}
