package org.topupbatch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CustomerRulesTest {

    static final CustomerRules RULES = CustomerRules.loadDefault();

    @ParameterizedTest(name = "{0} {1} zone={2}")
    @CsvSource(nullValues = "NULL", value = {
            "MOBILE LEGENDS, 123456, 1",
            "mobile legends , 123456789012, 12345",
            "GENSHIN IMPACT, 812345678, asia",
            "GENSHIN IMPACT, 8123456789, tw_hk_mo",
            "FREE FIRE, 12345678, ''",
            "PUBG MOBILE, 123456789012, ''",
            "VALORANT, Player#1234, ''",
            "VALORANT, Big Name Here#ab1, ''",
            "GOOGLE PLAY, user@example.com, ''",
            "STEAM, abcd, ''",
            "TELKOMSEL, 0812345678, ''",
            "TELKOMSEL, 0853123456789, ''",
            "INDOSAT, 085712345678, ''",
            "XL, 087812345678, ''",
            "TRI, 089912345678, ''",
            "SMARTFREN, 088912345678, ''",
            "UNLISTED BRAND, anything at all, optional zone",
            "UNLISTED BRAND, x, ''",
    })
    void accepts(String brand, String customerNo, String zone) {
        assertThat(RULES.check(brand, customerNo, zone)).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1} zone={2}")
    @CsvSource(delimiter = '|', value = {
            "MOBILE LEGENDS|12345|1|customer_no must be a user ID of 6 to 12 digits, e.g. 123456789",
            "MOBILE LEGENDS|123456||customer_no_zone is required for MOBILE LEGENDS: a zone ID of 1 to 5 digits, e.g. 2001",
            "MOBILE LEGENDS|123456|123456|customer_no_zone must be a zone ID of 1 to 5 digits, e.g. 2001",
            "GENSHIN IMPACT|812345678|ASIA|customer_no_zone must be one of asia, america, europe, tw_hk_mo",
            "GENSHIN IMPACT|81234567|asia|customer_no must be a UID of 9 to 10 digits, e.g. 812345678",
            "FREE FIRE|12345678|1|customer_no_zone must be empty for FREE FIRE",
            "PUBG MOBILE|1234567|| customer_no must be a player ID of 8 to 12 digits, e.g. 5123456789",
            "VALORANT|Player1234||customer_no must be Name#TAG (name 3 to 16 characters, tag 3 to 5 letters or digits), e.g. Player#1234",
            "VALORANT|Pl#1234||customer_no must be Name#TAG (name 3 to 16 characters, tag 3 to 5 letters or digits), e.g. Player#1234",
            "VALORANT|Player#12||customer_no must be Name#TAG (name 3 to 16 characters, tag 3 to 5 letters or digits), e.g. Player#1234",
            "GOOGLE PLAY|a b c d||customer_no must be 4 to 64 characters without spaces",
            "STEAM|abc||customer_no must be 4 to 64 characters without spaces",
            "TELKOMSEL|081412345678||customer_no must be a mobile number of 10 to 13 digits starting with 0811, 0812, 0813, 0821, 0822, 0823, 0851, 0852, 0853, e.g. 081234567890",
            "TELKOMSEL|081234567||customer_no must be a mobile number of 10 to 13 digits starting with 0811, 0812, 0813, 0821, 0822, 0823, 0851, 0852, 0853, e.g. 081234567890",
            "TELKOMSEL|+6281234567890||customer_no must be a mobile number of 10 to 13 digits starting with 0811, 0812, 0813, 0821, 0822, 0823, 0851, 0852, 0853, e.g. 081234567890",
            "INDOSAT|081712345678||customer_no must be a mobile number of 10 to 13 digits starting with 0814, 0815, 0816, 0855, 0856, 0857, 0858, e.g. 085612345678",
            "XL|087612345678||customer_no must be a mobile number of 10 to 13 digits starting with 0817, 0818, 0819, 0859, 0877, 0878, e.g. 081712345678",
            "TRI|089412345678||customer_no must be a mobile number of 10 to 13 digits starting with 0895, 0896, 0897, 0898, 0899, e.g. 089612345678",
            "SMARTFREN|088012345678||customer_no must be a mobile number of 10 to 13 digits starting with 0881, 0882, 0883, 0884, 0885, 0886, 0887, 0888, 0889, e.g. 088112345678",
    })
    void rejectsWithWhatWasExpected(String brand, String customerNo, String zone, String message) {
        assertThat(RULES.check(brand, customerNo.trim(), zone == null ? "" : zone)).contains(message.trim());
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
        assertThat(rules.check("MY GAME", "ABC", "")).isEmpty();
        assertThat(rules.check("My Game", "ABC", "7")).isEmpty();
        assertThat(rules.check("MY GAME", "abc", "")).contains("customer_no must be three capitals, e.g. ABC");
        assertThat(rules.check("MOBILE LEGENDS", "12", "")).isEmpty();
        assertThat(rules.check("MOBILE LEGENDS", "12", "1")).contains("customer_no_zone must be empty for MOBILE LEGENDS");
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
                "default.zone: 'sometimes' is not one of required, optional, forbidden");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d, prefixes: [0123]}\n",
                "default.customer_no.prefixes: write every item in quotes, e.g. '0811' (found the number 83");
        assertBad(dir, "default:\n  customer_no: {pattern: '.'}\n", "default.customer_no: description is missing");
        assertBad(dir, "default:\n  customer_no: {pattern: '.', description: d}\nbrands:\n  XL: {zone: forbidden}\n",
                "brands.XL: customer_no is missing");
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
