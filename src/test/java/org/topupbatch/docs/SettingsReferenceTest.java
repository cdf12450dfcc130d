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
import org.topupbatch.settings.Setting;
import org.topupbatch.settings.Settings;

/**
 * The settings reference is checked against the code (issue 36): every {@code topup.*} key the
 * settings package declares has a row in a table of docs/ (docs/settings.md, or the page of its
 * area), every row names a key that src/main or the routes mention (a {@code {{topup.x}}}
 * placeholder counts), and each row's environment variable is the key as the settings lookup turns
 * it into one (upper case, '.' and '-' as '_'). For the keys a group declares with
 * {@link Setting} (issue 33), the row's default is the declared one and its meaning starts with the
 * declared description, and application.properties states no other default than the declaration.
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
        Set<String> perAccount = new TreeSet<>();
        for (Setting<?> setting : Settings.declared()) {
            if (setting.key().contains(".NAME.")) {
                perAccount.add(setting.key());
            }
        }
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
                // topup.provider.NAME.x: the code makes each account's key from that declaration
                if (key.contains(".NAME.") ? !perAccount.contains(key) : !read.contains(key)) {
                    problems.add(tree.name(page) + ": " + key + " is read nowhere in src/main or routes");
                }
            }
        }
        for (String key : declared) {
            if (!key.endsWith(".") && !rows.contains(key)) {
                problems.add(key + " (declared in org.topupbatch.settings) has no row in docs/");
            }
        }
        for (String key : perAccount) {
            if (!rows.contains(key)) {
                problems.add(key + " (declared for each named account) has no row in docs/");
            }
        }
        assertThat(perAccount).as("the named accounts' keys").hasSize(6);
        assertThat(declared).as("keys the settings package declares").hasSizeGreaterThan(40);
        assertThat(problems).isEmpty();
    }

    @Test
    void each_rows_default_and_meaning_are_the_declarations() throws IOException {
        // key -> each row of it (page, default, meaning): a key shown on two pages is checked on both
        java.util.Map<String, List<String[]>> rows = new java.util.HashMap<>();
        DocsTree tree = new DocsTree(Path.of(""));
        for (Path page : tree.pages()) {
            for (String line : DocsTree.lines(page)) {
                String[] cells = line.split("\\s*\\|\\s*", -1);
                if (line.startsWith("| topup.") && cells.length >= 6) {
                    rows.computeIfAbsent(cells[1], k -> new ArrayList<>()).add(new String[] {tree.name(page), cells[3], cells[4]});
                }
            }
        }
        List<String> problems = new ArrayList<>();
        for (Setting<?> setting : Settings.declared()) {
            List<String[]> shown = rows.get(setting.key());
            if (shown == null) {
                problems.add(setting.key() + " has no row in docs/");
                continue;
            }
            for (String[] row : shown) {
                String problem = rowDiffers(setting, row[1], row[2]);
                if (problem != null) {
                    problems.add(row[0] + ": " + problem);
                }
            }
        }
        assertThat(Settings.declared()).as("keys the groups declare").hasSizeGreaterThan(40);
        assertThat(problems).isEmpty();
    }

    @Test
    void application_properties_states_no_default_other_than_the_declarations() throws IOException {
        java.util.Properties file = new java.util.Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            file.load(in);
        }
        List<String> problems = new ArrayList<>();
        for (Setting<?> setting : Settings.declared()) {
            String problem = propertyDiffers(setting, file.getProperty(setting.key()));
            if (problem != null) {
                problems.add(problem);
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void the_checks_see_a_default_or_a_meaning_that_differs() {
        Setting<String> declared = Setting.of("topup.x", "30m", "how long it waits", (k, v) -> v);
        Setting<String> unset = Setting.of("topup.y", null, "what it names", (k, v) -> v);
        assertThat(rowDiffers(declared, "`30m`", "how long it waits for `x`")).isNull();
        assertThat(rowDiffers(declared, "`20m`", "how long it waits")).contains("`20m`").contains("`30m`");
        assertThat(rowDiffers(declared, "`30m`", "how long the batch waits")).contains("how long it waits");
        assertThat(rowDiffers(unset, "empty: the bundled file", "what it names")).isNull();
        assertThat(rowDiffers(unset, "`x`", "what it names")).contains("`x`");
        assertThat(propertyDiffers(declared, "30m")).isNull();
        assertThat(propertyDiffers(declared, null)).isNull();
        assertThat(propertyDiffers(declared, "20m")).contains("20m").contains("30m");
        Setting<String> required = new Setting<>("topup.z", null, "its address", (k, v) -> v, true);
        assertThat(rowDiffers(required, "(required)", "its address")).isNull();
        assertThat(rowDiffers(required, "empty", "its address")).contains("empty").contains("(required)");
        assertThat(rowDiffers(unset, "(required)", "what it names")).contains("has none");
        assertThat(propertyDiffers(unset, "")).isNull();
        assertThat(propertyDiffers(unset, "x")).contains("'x'");
    }

    /**
     * Why a docs row does not say what the declaration says, or null: a declared default is shown as
     * {@code `30m`}; a required key as {@code (required)}; no default as {@code empty}, {@code (none)} or
     * {@code empty: what that means}; the meaning (without its {@code `} marks) starts with the declared
     * description.
     */
    static String rowDiffers(Setting<?> setting, String shownDefault, String meaning) {
        boolean shownRight = setting.required() ? shownDefault.equals("(required)")
                : setting.defaultText() != null ? shownDefault.equals("`" + setting.defaultText() + "`")
                : shownDefault.equals("empty") || shownDefault.equals("(none)") || shownDefault.startsWith("empty: ");
        if (!shownRight) {
            return setting.key() + ": docs show the default " + shownDefault + ", the declaration "
                    + (setting.required() ? "requires a value (write (required))"
                    : setting.defaultText() == null ? "has none (write empty, (none) or empty: ...)" : "`" + setting.defaultText() + "`");
        }
        if (!meaning.replace("`", "").startsWith(setting.description())) {
            return setting.key() + ": the meaning in docs does not start with the declared description '"
                    + setting.description() + "'";
        }
        return null;
    }

    /** Why application.properties' value of a declared key is not its declared default, or null (absent is fine). */
    static String propertyDiffers(Setting<?> setting, String stated) {
        if (stated == null) {
            return null;
        }
        String dflt = setting.defaultText() == null ? "" : setting.defaultText();
        return stated.strip().equals(dflt) ? null
                : "application.properties: " + setting.key() + " = '" + stated.strip() + "', the declared default is '" + dflt + "'";
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
