package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CustomerRulesTest {

    static final CustomerRules RULES = CustomerRules.loadDefault();

    static final String TSEL_PREFIXES = "0811, 0812, 0813, 0821, 0822, 0823, 0851, 0852, 0853";

    /** The forms real customers write, for every brand: all are sent, none draws a warning. */
    @ParameterizedTest(name = "{0} {1} zone={2}")
    @CsvSource(nullValues = "NULL", value = {
            "MOBILE LEGENDS, 123456, 1",
            "mobile legends , 123456789012, 12345",
            "MOBILE LEGENDS, 123456789 (2012), ''",
            "MOBILE LEGENDS, 123456789(2012), ''",
            "MOBILE LEGENDS, 123456789 (2012), 2012",
            "MOBILE LEGENDS, 123456789, (2012)",
            "GENSHIN IMPACT, 812345678, os_asia",
            "GENSHIN IMPACT, 612345678, os_usa",
            "GENSHIN IMPACT, 712345678, OS_EURO",
            "GENSHIN IMPACT, 912345678, os_cht",
            "GENSHIN IMPACT, 812345678, Asia",
            "GENSHIN IMPACT, 612345678, america",
            "GENSHIN IMPACT, 712345678, EUROPE",
            "GENSHIN IMPACT, 8123456789, TW/HK/MO",
            "GENSHIN IMPACT, 8123456789, tw_hk_mo",
            "FREE FIRE, 12345678, ''",
            "PUBG MOBILE, 123456789012, ''",
            "VALORANT, Player#1234, ''",
            "VALORANT, Big Name Here#ab1, ''",
            "GOOGLE PLAY, user@example.com, ''",
            "STEAM, abcd, ''",
            "TELKOMSEL, 0812345678, ''",
            "TELKOMSEL, 0853123456789, ''",
            "TELKOMSEL, 6281234567890, ''",
            "TELKOMSEL, +6281234567890, ''",
            "TELKOMSEL, +62812345678, ''",
            "INDOSAT, 085712345678, ''",
            "INDOSAT, +6285712345678, ''",
            "XL, 087812345678, ''",
            "XL, 6287812345678, ''",
            "TRI, 089912345678, ''",
            "SMARTFREN, 088912345678, ''",
            "UNLISTED BRAND, anything at all, optional zone",
            "UNLISTED BRAND, x, ''",
    })
    void sendsTheFormsRealCustomersWrite(String brand, String customerNo, String zone) {
        assertThat(RULES.check(brand, customerNo, zone)).isEqualTo(CustomerCheck.send(List.of()));
    }

    /** What no real customer could have: each stays a rejection, saying what is expected. */
    @ParameterizedTest(name = "{0} {1} zone={2}")
    @CsvSource(delimiter = '|', value = {
            "MOBILE LEGENDS|123456||customer_no_zone is required for MOBILE LEGENDS: a zone ID of 1 to 5 digits"
                    + " (or write it after the user ID, 123456789 (2012)), e.g. 2012",
            "GENSHIN IMPACT|812345678||customer_no_zone is required for GENSHIN IMPACT: the server, e.g. os_asia or Asia",
            "MOBILE LEGENDS|1234|1|customer_no must be a user ID of 5 to 12 digits, optionally followed by the zone ID"
                    + " in brackets, e.g. 123456789 or 123456789 (2012)",
            "MOBILE LEGENDS|123456|123456|customer_no_zone must be a zone ID of 1 to 5 digits (or write it after the"
                    + " user ID, 123456789 (2012)), e.g. 2012",
            "GENSHIN IMPACT|81234567|os_asia|customer_no must be a UID of 9 or 10 digits, e.g. 812345678",
            "PUBG MOBILE|1234||customer_no must be a player ID of 5 to 14 digits, e.g. 5123456789",
            "FREE FIRE|123456789012345||customer_no must be a player ID of 5 to 14 digits, e.g. 123456789",
            "VALORANT|NoTagPlayer||customer_no must be a Riot ID Name#TAG (name 3 to 16 characters, tag 3 to 5 letters"
                    + " or digits), e.g. Player#1234",
            "VALORANT|Pl#1234||customer_no must be a Riot ID Name#TAG (name 3 to 16 characters, tag 3 to 5 letters"
                    + " or digits), e.g. Player#1234",
            "STEAM|abc||customer_no must be an e-mail address or phone number of 4 to 64 characters, e.g. buyer@example.com",
            "TELKOMSEL|081234567||customer_no must be a mobile number written 08…, 628… or +628… (10 to 13 digits in"
                    + " the 08… form), e.g. 081234567890",
            "TELKOMSEL|08123456789012||customer_no must be a mobile number written 08…, 628… or +628… (10 to 13 digits"
                    + " in the 08… form), e.g. 081234567890",
            "TELKOMSEL|+6281234567890123||customer_no must be a mobile number written 08…, 628… or +628… (10 to 13"
                    + " digits in the 08… form), e.g. 081234567890",
            "XL|0812 ABCD 7890||customer_no must be a mobile number written 08…, 628… or +628… (10 to 13 digits in"
                    + " the 08… form), e.g. 081712345678",
    })
    void rejectsOnlyWhatIsCertain(String brand, String customerNo, String zone, String message) {
        assertThat(RULES.check(brand, customerNo, zone == null ? "" : zone)).isEqualTo(CustomerCheck.reject(message));
    }

    @Test
    void controlCharactersAreRejectedForEveryBrand() {
        assertThat(RULES.check("FREE FIRE", "1234\t5678", "").reason())
                .isEqualTo("customer_no holds a control character (U+0009 at position 5); no customer has one, remove it");
        assertThat(RULES.check("GENSHIN IMPACT", "812345678", "os_\u0000asia").reason())
                .isEqualTo("customer_no_zone holds a control character (U+0000 at position 4); no customer has one,"
                        + " remove it");
        assertThat(RULES.check("UNLISTED", "a\u007Fb", "").rejected()).isTrue();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "TELKOMSEL, 6.28E+11", "TELKOMSEL, 8.1234E+10", "TELKOMSEL, '6,28123E+12'", "TELKOMSEL, 6.28123456789e11",
            "GOOGLE PLAY, 6.28E+11", "MOBILE LEGENDS, 1.23457E+8", "UNLISTED, 8.1234E+10",
    })
    void scientificNotationIsSpreadsheetDamage(String brand, String customerNo) {
        assertThat(RULES.check(brand, customerNo, "1").reason()).isEqualTo("customer_no " + customerNo
                + " looks like a number a spreadsheet turned into scientific notation; format the column as text"
                + " and export again");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"TELKOMSEL, 81234567890", "INDOSAT, 856123456", "XL, 878123456789"})
    void aPhoneNumberWithoutItsLeadingZeroIsSpreadsheetDamage(String brand, String customerNo) {
        assertThat(RULES.check(brand, customerNo, "").reason()).isEqualTo("customer_no " + customerNo
                + " looks like a phone number whose leading 0 a spreadsheet removed; write it as 0" + customerNo
                + " or +62" + customerNo);
    }

    @Test
    void onlyAPlausibleMobileLengthCountsAsALostZero() {
        assertThat(RULES.check("TELKOMSEL", "81234567", "").reason()).startsWith("customer_no must be a mobile number");
        assertThat(RULES.check("TELKOMSEL", "8123456789012", "").reason()).startsWith("customer_no must be a mobile number");
        assertThat(RULES.check("TELKOMSEL", "6281234567890", "").rejected()).isFalse();
        assertThat(RULES.check("FREE FIRE", "81234567890", "").rejected()).as("not a phone product").isFalse();
    }

    @Test
    void doubtsAreWarningsAndTheValueIsSent() {
        assertThat(RULES.check("TELKOMSEL", "089912345678", "").warnings()).containsExactly("customer_no 089912345678"
                + " does not start with a TELKOMSEL prefix (" + TSEL_PREFIXES + "); sent anyway, the provider decides");
        assertThat(RULES.check("TELKOMSEL", "+62 899-1234-5678", "")).isEqualTo(CustomerCheck.send(List.of(
                "customer_no +62 899-1234-5678 does not start with a TELKOMSEL prefix (" + TSEL_PREFIXES
                        + "); sent anyway, the provider decides",
                "customer_no +62 899-1234-5678 is written with spaces or dashes; sent as written, the provider decides")));
        assertThat(RULES.check("GENSHIN IMPACT", "812345678", "mars")).isEqualTo(CustomerCheck.send(List.of(
                "customer_no_zone mars is not one of the usual GENSHIN IMPACT values (os_asia, os_usa, os_euro, os_cht,"
                        + " Asia, America, Europe, TW/HK/MO, TW_HK_MO); sent anyway, the provider decides")));
        assertThat(RULES.check("FREE FIRE", "12345678", "1")).isEqualTo(CustomerCheck.send(List.of(
                "customer_no_zone 1 is not used by FREE FIRE; sent as written, the provider ignores it or refuses"
                        + " the order")));
    }

    @Test
    void aStrictBrandRejectsWhatIsUnusual(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("rules.yaml");
        Files.writeString(file, """
                default:
                  customer_no: {pattern: '.+', description: anything}
                brands:
                  TELKOMSEL:
                    strict: true
                    customer_no: {pattern: '(\\+62|62|0)8[0-9]{8,11}', description: a number, phone: true,
                                  prefixes: ['0811']}
                  GENSHIN IMPACT:
                    strict: true
                    customer_no: {pattern: '[0-9]{9}', description: a UID}
                    zone: {presence: required, pattern: '.+', description: a server, values: [os_asia]}
                """);
        CustomerRules rules = CustomerRules.load(file);
        assertThat(rules.check("TELKOMSEL", "+62811234567", "").rejected()).isFalse();
        assertThat(rules.check("TELKOMSEL", "0812345678", "").reason()).isEqualTo("customer_no 0812345678 does not"
                + " start with a TELKOMSEL prefix (0811); the customer rules accept only these for TELKOMSEL");
        assertThat(rules.check("GENSHIN IMPACT", "812345678", "OS_ASIA").rejected()).isFalse();
        assertThat(rules.check("GENSHIN IMPACT", "812345678", "asia").reason()).isEqualTo("customer_no_zone asia is"
                + " not one of the usual GENSHIN IMPACT values (os_asia); the customer rules accept only these for"
                + " GENSHIN IMPACT");
    }

    @Test
    void operatorFileReplacesTheRules(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("rules.yaml");
        Files.writeString(file, """
                default:
                  customer_no: {pattern: '[0-9]+', description: digits}
                brands:
                  my game:
                    customer_no: {pattern: '[A-Z]{3}', description: three capitals, example: ABC}
                    zone: {presence: optional, pattern: '[0-9]', description: one digit}
                """);
        CustomerRules rules = CustomerRules.load(file);
        assertThat(rules.check("MY GAME", "ABC", "").rejected()).isFalse();
        assertThat(rules.check("My Game", "ABC", "7").rejected()).isFalse();
        assertThat(rules.check("MY GAME", "abc", "").reason()).isEqualTo("customer_no must be three capitals, e.g. ABC");
        assertThat(rules.check("MOBILE LEGENDS", "12", "").rejected()).isFalse();
        assertThat(rules.check("MOBILE LEGENDS", "12", "1").warnings())
                .containsExactly("customer_no_zone 1 is not used by MOBILE LEGENDS; sent as written, the provider"
                        + " ignores it or refuses the order");
    }

    @Test
    void badFilesNameTheFileAndTheProblem(@TempDir Path dir) throws IOException {
        assertBad(dir, "default: [", "not valid YAML");
        assertBad(dir, "brands: {}", "'default' (the rule for brands not listed) is missing");
        assertBad(dir, "default:\n  customer_no: {pattern: '[0-9', description: d}\n",
                "default.customer_no.pattern: not a valid regular expression");
        assertBad(dir, "default:\n  customer_no: {patern: '[0-9]', description: d}\n",
                "default.customer_no: unknown key 'patern'");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\n  zone: sometimes\n",
                "default.zone: must be a mapping with presence, pattern and description");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\n  zone: {presence: sometimes}\n",
                "default.zone.presence: 'sometimes' is not one of required, optional");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\n  zone: forbidden\n",
                "default.zone: 'forbidden' is no longer a choice: a zone written for a product that uses none is sent"
                        + " as written and the provider decides; leave zone out for this brand");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\n  strict: yes please\n",
                "default.strict: must be true or false (found 'yes please')");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d, prefixes: [0123]}\n",
                "default.customer_no.prefixes: write every item in quotes, e.g. '0811' (found the number 83");
        assertBad(dir, "default:\n  customer_no: {pattern: '.'}\n", "default.customer_no: description is missing");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\nbrands:\n  XL: {zone: forbidden}\n",
                "brands.XL: customer_no is missing");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\n  zone: {presence: required,"
                + " inside-customer-no: '(', pattern: '.', description: d}\n",
                "default.zone.inside-customer-no: not a valid regular expression");
        assertThatThrownBy(() -> CustomerRules.load(dir.resolve("absent.yaml")))
                .isInstanceOf(CustomerRulesException.class).hasMessageContaining("absent.yaml").hasMessageContaining("cannot be read");
    }

    private static void assertBad(Path dir, String yaml, String problem) throws IOException {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, yaml);
        assertThatThrownBy(() -> CustomerRules.load(file))
                .isInstanceOf(CustomerRulesException.class)
                .hasMessageStartingWith("customer rules file " + file + ": ")
                .hasMessageContaining(problem);
    }
}
