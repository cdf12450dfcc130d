package org.topupbatch.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The settings reference is checked against the code (issue 36): every {@code topup.*} key the
 * settings package declares has a row in a table of docs/ (docs/settings.md, or the page of its
 * area), every row names a key that src/main or the routes mention (a {@code {{topup.x}}}
 * placeholder counts), and each row's environment variable is the key as the settings lookup turns
 * it into one (upper case, '.' and '-' as '_').
 */
class SettingsReferenceTest {

    private static final Pattern ROW = Pattern.compile("^\\| (topup\\.[A-Za-z0-9.-]+) \\| ([^|]*) \\|");
    /** A key as the settings package declares it: a string literal ("topup.provider." opens an account's keys). */
    private static final Pattern DECLARED = Pattern.compile("\"(topup\\.[a-z0-9.-]*[a-z0-9.])\"");
    /** A key as code, routes ({@code {{topup.x}}}) and properties read it. */
    private static final Pattern READ = Pattern.compile("(?<![\\w.])(topup\\.[a-z0-9.-]*[a-z0-9])");

    @Test
    void every_declared_setting_has_a_row_and_every_row_a_setting_the_code_reads() throws IOException {
        Set<String> declared = keys(DECLARED, "src/main/java/org/topupbatch/settings");
        Set<String> read = keys(READ, "src/main/java", "src/main/resources", "routes");
        Set<String> rows = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        DocsTree tree = new DocsTree(Path.of(""));
        for (Path page : tree.pages()) {
            for (String line : DocsTree.lines(page)) {
                Matcher m = ROW.matcher(line);
                if (!m.find()) {
                    continue;
                }
                String key = m.group(1);
                rows.add(key);
                String variable = key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
                if (!m.group(2).strip().equals(variable)) {
                    problems.add(tree.name(page) + ": " + key + " shows " + m.group(2).strip() + ", the lookup reads " + variable);
                }
                // topup.provider.NAME.x: the code builds the key from the account's name
                if (key.contains(".NAME.") ? !declared.contains("topup.provider.") : !read.contains(key)) {
                    problems.add(tree.name(page) + ": " + key + " is read nowhere in src/main or routes");
                }
            }
        }
        for (String key : declared) {
            if (!key.endsWith(".") && !rows.contains(key)) {
                problems.add(key + " (declared in org.topupbatch.settings) has no row in docs/");
            }
        }
        assertThat(declared).as("keys the settings package declares").hasSizeGreaterThan(40);
        assertThat(problems).isEmpty();
    }

    /** The keys {@code pattern} finds in the text files under {@code places}. */
    private static Set<String> keys(Pattern pattern, String... places) throws IOException {
        Set<String> keys = new TreeSet<>();
        for (String place : places) {
            try (Stream<Path> files = Files.walk(Path.of(place))) {
                for (Path file : files.filter(p -> p.toString().matches(".*\\.(java|ya?ml|properties)$")).toList()) {
                    Matcher m = pattern.matcher(Files.readString(file));
                    while (m.find()) {
                        keys.add(m.group(1));
                    }
                }
            }
        }
        return keys;
    }
}
