package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: whatever a batch file holds, {@code plan} (the intake's own checks, {@link BatchCheck})
 * answers with exit 0, 1 or 2, a fatal case in one clear line, never a stack trace, every value it
 * prints on one line with line breaks and control characters escaped, and leaves the file as it was.
 *
 * <p>A seeded, bounded fuzz campaign (300 damaged files from five seed files; {@code -Dfuzz.seed=N},
 * {@code -Dfuzz.files=N}, {@code -Dfuzz.only=I} replays file I; failing files are kept in
 * {@code target/fuzz-failures/}), then the cases a tester found by hand, each with what it must give.
 * Plans run in this JVM against one sandbox ({@link InProcessPlan}): about 0.1 s a file.
 */
class InputFuzzTest {

    static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    static final String SAMPLE_TEXT = new String(org.topupbatch.testing.SampleBatch.bytes(), StandardCharsets.UTF_8);

    static final String SEMICOLON_TEXT = String.join("\r\n",
            "ref_id;product_sku;customer_no;customer_no_zone;max_price;order_no;note",
            "S-1;ML86;123456789;2345;;SO-1;plain",
            "S-2;GI60;812345678;os_asia;;SO-2;\"two\r\nlines; and a delimiter\"",
            "S-3;TSEL10;+6281234567890;;20000;SO-3;international",
            "",
            "S-4;FF100;12345678;;;SO-4;\"quote \"\"inside\"\"\"",
            "S-5;VAL475;Budi#ID01;;60000;SO-5;",
            "S-6;NOPE;1;;;SO-6;unknown product",
            "");

    static final String QUOTED_TEXT = String.join("\n",
            "\"ref_id\",\"product_sku\",\"customer_no\",\"customer_no_zone\",\"customer_name\",\"note\"",
            "\"Q-1\",\"ML86\",\"123456789\",\"2345\",\"Rizky, Pratama\",\"a \"\"quoted\"\" word\"",
            "\"Q-2\",\"FF100\",\"12345678\",\"\",\"Siti\",\"line one",
            "line two\"",
            "\"Q-3\",\"PUBG60\",\"5123456789\",\"\",\"Dewi\",\"\"",
            "");

    static final String NAMES_TEXT = String.join("\r\n",
            "ref_id,product_sku,customer_no,customer_name,note",
            "W-1,FF100,12345678,José,café",
            "W-2,ML86,123456789 (2345),Ñandú,€ 5",
            "W-3,TSEL10,081234567890,Dwi Ángel,",
            "");

    record Seed(String name, byte[] bytes) {
    }

    static final List<Seed> SEEDS = List.of(
            new Seed("sample", SAMPLE_TEXT.getBytes(StandardCharsets.UTF_8)),
            new Seed("semicolon-bom-crlf", withBom(SEMICOLON_TEXT, StandardCharsets.UTF_8)),
            new Seed("quoted", QUOTED_TEXT.getBytes(StandardCharsets.UTF_8)),
            new Seed("windows-1252", NAMES_TEXT.getBytes(WINDOWS_1252)),
            new Seed("utf16le-bom-tab", withBom(NAMES_TEXT.replace(',', '\t'), StandardCharsets.UTF_16LE)));

    @TempDir
    static Path dir;
    static InProcessPlan plan;

    @BeforeAll
    static void start() throws IOException {
        plan = new InProcessPlan(dir);
        plan.plan(write("warm-up.csv", SEEDS.get(0).bytes())); // the first plan loads the classes: 2 s
    }

    @AfterAll
    static void stop() {
        plan.close();
    }

    @Test
    void a_seeded_campaign_of_damaged_files_gets_exit_0_1_or_2_and_clear_lines_never_a_trace() throws IOException {
        long seed = Long.getLong("fuzz.seed", 20261124L);
        int files = Integer.getInteger("fuzz.files", 300);
        Integer only = Integer.getInteger("fuzz.only");
        int[] exits = new int[3];
        Map<String, int[]> bySeed = new TreeMap<>();
        Map<String, Integer> fatal = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        Path kept = Path.of("target", "fuzz-failures");
        long start = System.nanoTime();
        long slowest = 0;
        int run = 0;
        for (int i = 0; i < files; i++) {
            if (only != null && i != only) {
                continue;
            }
            Seed source = SEEDS.get(i % SEEDS.size());
            FileMutator mutator = new FileMutator(seed * 1_000_003L + i);
            byte[] bytes = mutator.mutate(source.bytes());
            Path file = write("fuzz-" + i + ".csv", bytes);
            InProcessPlan.Snapshot before = InProcessPlan.Snapshot.of(file);
            InProcessPlan.Outcome outcome = plan.plan(file);
            List<String> problems = InProcessPlan.problems(outcome, file, before);
            run++;
            slowest = Math.max(slowest, outcome.millis());
            if (outcome.exit() != null && outcome.exit() >= 0 && outcome.exit() <= 2) {
                exits[outcome.exit()]++;
                bySeed.computeIfAbsent(source.name(), k -> new int[3])[outcome.exit()]++;
            }
            if (outcome.exit() != null && outcome.exit() == 1) {
                fatal.merge(fatalKind(outcome.err()), 1, Integer::sum);
            }
            if (!problems.isEmpty()) {
                failures.add("#" + i + " " + source.name() + " " + mutator.done() + ": " + String.join("; ", problems));
                Files.createDirectories(kept);
                Files.write(kept.resolve("fuzz-" + seed + "-" + i + ".csv"), bytes);
            }
            Files.delete(file);
        }
        StringBuilder summary = new StringBuilder(String.format(
                "Input fuzz: %d files (seed %d), exit 0: %d, exit 1: %d, exit 2: %d, failing: %d; %.1f s, slowest %d ms",
                run, seed, exits[0], exits[1], exits[2], failures.size(), (System.nanoTime() - start) / 1e9, slowest));
        bySeed.forEach((name, e) -> summary.append(String.format("%n  %-20s exit 0: %3d, exit 1: %3d, exit 2: %3d", name, e[0], e[1], e[2])));
        summary.append(String.format("%n  exit 1 for:"));
        fatal.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> summary.append(String.format("%n    %3d  %s", e.getValue(), e.getKey())));
        System.out.println(summary);
        assertThat(failures).as(summary + "\nreplay one: mvn -B -o test -Dtest=InputFuzzTest -Dfuzz.seed=" + seed
                + " -Dfuzz.only=I (files kept in " + kept + ")\n" + String.join("\n", failures.subList(0,
                Math.min(30, failures.size()))) + "\n").isEmpty();
        assertThat(run).isEqualTo(only == null ? files : 1);
    }

    /** What a fatal line says, without its file, numbers and details: {@code not text: a NUL byte on line N}. */
    static String fatalKind(String err) {
        String line = err.lines().findFirst().orElse("(nothing on stderr)");
        int said = line.indexOf(" cannot be read as a batch: ");
        String kind = said < 0 ? line : line.substring(said + " cannot be read as a batch: ".length());
        kind = kind.replaceAll("\\(found: .*", "(found: ...)").replaceAll("(line|than) \\d+", "$1 N");
        return kind.length() > 110 ? kind.substring(0, 110) + "..." : kind;
    }

    // ---- the tester's findings, one by one -------------------------------------------------------

    @Test
    void plan_shows_repeated_orders_of_the_file_unless_allow_repeat_says_yes_or_the_window_is_0() throws IOException {
        byte[] text = String.join("\n", "ref_id,product_sku,customer_no,allow_repeat",
                "RP-1,TSEL10,081234567890,", "RP-2,TSEL10,+62 812-3456-7890,", "RP-3,TSEL10,6281234567890,yes", "").getBytes(
                StandardCharsets.UTF_8);
        InProcessPlan.Outcome o = planClean("repeats.csv", text);
        assertThat(o.exit()).as(o.all()).as("a row waiting for the outcome of the order it repeats is acceptable").isZero();
        assertThat(o.out()).contains("waits     line 3  ref_id RP-2: waits for ref_id RP-1 (line 2 of this file): the same"
                + " product and customer, still in flight; ordered if that order fails, rejected if it succeeds")
                .contains("Rows:     3 read, 3 acceptable, 0 rejected, 1 with warnings; 1 of the acceptable waiting for the outcome of"
                        + " the order it repeats");
        InProcessPlan.Outcome off = plan.plan(write("repeats-off.csv", text), java.util.Map.of("TOPUP_REPEAT_WINDOW", "0"));
        assertThat(off.exit()).as(off.all()).isZero();
    }

    @Test
    void windows_1252_file_with_jose_is_read_as_windows_1252_and_says_so() throws IOException {
        InProcessPlan.Outcome o = planClean("jose-1252.csv", NAMES_TEXT.getBytes(WINDOWS_1252));
        assertThat(o.exit()).as(o.all()).isZero();
        assertThat(o.out()).contains("Rows:     3 read, 3 acceptable, 0 rejected");
        assertThat(encodingLine(o)).isEqualTo("Read as:  windows-1252, delimiter ','");
    }

    @Test
    void utf8_file_says_utf8_and_with_bom_when_it_has_one() throws IOException {
        InProcessPlan.Outcome plain = planClean("names-utf8.csv", NAMES_TEXT.getBytes(StandardCharsets.UTF_8));
        assertThat(plain.exit()).as(plain.all()).isZero();
        assertThat(encodingLine(plain)).isEqualTo("Read as:  UTF-8, delimiter ','");
        InProcessPlan.Outcome bom = planClean("names-utf8-bom.csv", withBom(NAMES_TEXT, StandardCharsets.UTF_8));
        assertThat(bom.exit()).as(bom.all()).isZero();
        assertThat(encodingLine(bom)).isEqualTo("Read as:  UTF-8 with byte-order mark, delimiter ','");
    }

    @Test
    void utf16le_with_bom_and_tabs_is_read() throws IOException {
        InProcessPlan.Outcome o = planClean("names-utf16le.csv", withBom(NAMES_TEXT.replace(',', '\t'), StandardCharsets.UTF_16LE));
        assertThat(o.exit()).as(o.all()).isZero();
        assertThat(o.out()).contains("Rows:     3 read, 3 acceptable, 0 rejected");
        assertThat(encodingLine(o)).isEqualTo("Read as:  UTF-16LE with byte-order mark, delimiter tab");
    }

    @Test
    void utf16be_with_bom_and_tabs_is_read() throws IOException {
        InProcessPlan.Outcome o = planClean("names-utf16be.csv", withBom(NAMES_TEXT.replace(',', '\t'), StandardCharsets.UTF_16BE));
        assertThat(o.exit()).as(o.all()).isZero();
        assertThat(o.out()).contains("Rows:     3 read, 3 acceptable, 0 rejected");
        assertThat(encodingLine(o)).isEqualTo("Read as:  UTF-16BE with byte-order mark, delimiter tab");
    }

    @Test
    void input_charset_utf8_refuses_a_windows_1252_file_in_one_line() throws IOException {
        Path file = write("jose-1252-forced.csv", NAMES_TEXT.getBytes(WINDOWS_1252));
        InProcessPlan.Snapshot before = InProcessPlan.Snapshot.of(file);
        InProcessPlan.Outcome o = plan.plan(file, Map.of("TOPUP_INPUT_CHARSET", "UTF-8"));
        assertThat(InProcessPlan.problems(o, file, before)).as(o.all()).isEmpty();
        assertThat(o.exit()).as(o.all()).isEqualTo(1);
        assertThat(o.err()).contains("UTF-8");
    }

    @Test
    void an_unknown_input_charset_is_a_bad_setting_in_one_line() throws IOException {
        Path file = write("names-bad-setting.csv", NAMES_TEXT.getBytes(StandardCharsets.UTF_8));
        InProcessPlan.Snapshot before = InProcessPlan.Snapshot.of(file);
        InProcessPlan.Outcome o = plan.plan(file, Map.of("TOPUP_INPUT_CHARSET", "klingon-8"));
        assertThat(InProcessPlan.problems(o, file, before)).as(o.all()).isEmpty();
        assertThat(o.exit()).as(o.all()).isEqualTo(1);
        assertThat(o.err()).startsWith("topup-batch: bad setting: topup.input-charset");
    }

    @Test
    void a_file_cut_short_in_its_last_row_rejects_that_row_as_cut_short() throws IOException {
        List<String> lines = SAMPLE_TEXT.lines().toList();
        String cut = String.join("\n", lines.subList(0, 10)) + "\nTB-20261121-0010,SMART10,0881123456"; // 3 of 8 fields, no line end
        InProcessPlan.Outcome o = planClean("cut-short.csv", cut.getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("Rows:     10 read, 9 acceptable, 1 rejected");
        assertThat(o.out()).containsPattern("rejected  line 11  ref_id TB-20261121-0010: .*cut short");
    }

    @Test
    void a_whole_last_row_without_a_line_end_is_not_cut_short() throws IOException {
        String whole = SAMPLE_TEXT.stripTrailing();
        InProcessPlan.Outcome o = planClean("no-last-line-end.csv", whole.getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("Rows:     21 read, 14 acceptable, 7 rejected").doesNotContain("cut short");
    }

    @Test
    void a_quoted_ref_id_with_a_line_break_is_printed_escaped_on_one_line() throws IOException {
        String text = "ref_id,product_sku,customer_no\n\"TB-1\nX\",FF100,12345678\nTB-2,FF100,12345679\n";
        InProcessPlan.Outcome o = planClean("ref-with-break.csv", text.getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("rejected  line 2  ref_id TB-1\\nX: ").contains("Rows:     2 read, 1 acceptable, 1 rejected");
        assertThat(o.out().lines()).as("no line starts with the ref_id's second half").noneMatch(l -> l.startsWith("X"));
    }

    @Test
    void an_escape_sequence_in_a_value_is_printed_escaped() throws IOException {
        String text = "ref_id,product_sku,customer_no,note\n"
                + "E-1,FF100,1234\u001B[2J5678,clear screen in customer_no\n"
                + "E\u001B[2J-2,FF100,12345678,clear screen in ref_id\n"
                + "E-3,FF\u001B[31m100,12345678,colour in product_sku\n"
                + "E-4,FF100,12345678,\u001B[2J in an extra column\n";
        InProcessPlan.Outcome o = planClean("escapes.csv", text.getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("Rows:     4 read, 1 acceptable, 3 rejected");
        assertThat(o.out()).containsPattern("(?i)ref_id E\\\\u001B\\[2J-2: ");
        assertThat(o.out()).containsPattern("(?i)product_sku FF\\\\u001B\\[31m100 ");
    }

    @Test
    void a_header_of_60000_characters_without_the_required_columns_is_one_short_line() throws IOException {
        String header = "ref_id,product_sku," + "h".repeat(60_000);
        InProcessPlan.Outcome o = planClean("long-header.csv", (header + "\nA-1,FF100,12345678\n").getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(1);
        assertThat(o.err()).contains("customer_no").containsPattern("… \\(6\\d{4} characters\\)"); // cut, its length said
    }

    @Test
    void a_header_of_60000_characters_with_a_long_extra_column_is_read() throws IOException {
        String header = "ref_id,product_sku,customer_no," + "h".repeat(60_000);
        InProcessPlan.Outcome o = planClean("long-extra-header.csv",
                (header + "\nA-1,FF100,12345678,x\nA-2,ML86,123456789 (2345),y\n").getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isZero();
        assertThat(o.out()).contains("Rows:     2 read, 2 acceptable, 0 rejected");
    }

    @Test
    void a_long_value_is_cut_with_its_length_said() throws IOException {
        String text = "ref_id,product_sku,customer_no\nL-1," + "P".repeat(5_000) + ",12345678\n";
        InProcessPlan.Outcome o = planClean("long-value.csv", text.getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).containsPattern("rejected  line 2  ref_id L-1: product_sku P{1,500}… \\(5\\d{3} characters\\)");
    }

    @Test
    void blank_lines_66000_before_the_header_are_skipped() throws IOException {
        String text = "\n".repeat(66_000) + "ref_id,product_sku,customer_no\nB-1,FF100,12345678\nB-2,NOPE1,12345678\n";
        InProcessPlan.Outcome o = planClean("blank-lines-first.csv", text.getBytes(StandardCharsets.UTF_8));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("Rows:     2 read, 1 acceptable, 1 rejected")
                .contains("rejected  line 66003  ref_id B-2: product_sku NOPE1 is not in the price list");
    }

    @Test
    void empty_rows_of_either_delimiter_above_the_header_are_skipped() throws IOException {
        String commaHeader = ";;;;;;;\r\n\r\n,,,\r\nref_id,product_sku,customer_no\r\nC-1,FF100,12345678\r\nC-2,ML86,123456789 (2345)\r\n";
        InProcessPlan.Outcome comma = planClean("semicolons-above.csv", commaHeader.getBytes(StandardCharsets.UTF_8));
        assertThat(comma.exit()).as(comma.all()).isZero();
        assertThat(comma.out()).contains("Rows:     2 read, 2 acceptable, 0 rejected");
        String semicolonHeader = ",,,,\n;;\nref_id;product_sku;customer_no\nC-3;FF100;12345678\n";
        InProcessPlan.Outcome semicolon = planClean("commas-above.csv", semicolonHeader.getBytes(StandardCharsets.UTF_8));
        assertThat(semicolon.exit()).as(semicolon.all()).isZero();
        assertThat(semicolon.out()).contains("Rows:     1 read, 1 acceptable, 0 rejected");
    }

    @Test
    void a_row_over_the_size_limit_is_rejected_and_the_rest_of_the_file_read() throws IOException {
        InProcessPlan.Outcome o = planClean("long-row.csv", fileWithRowOf(100_000));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("Rows:     3 read, 2 acceptable, 1 rejected").containsPattern("rejected  line 3 .*longer than");
    }

    /** README: "a row over 65,536 characters is rejected"; this one is 464 over. */
    @Test
    void a_row_just_over_the_size_limit_is_rejected_too() throws IOException {
        InProcessPlan.Outcome o = planClean("row-just-over.csv", fileWithRowOf(66_000));
        assertThat(o.exit()).as(o.all()).isEqualTo(2);
        assertThat(o.out()).contains("Rows:     3 read, 2 acceptable, 1 rejected").containsPattern("rejected  line 3 .*longer than");
    }

    /** A row on line 3 of {@code chars} characters (its line end not counted) between two good rows. */
    static byte[] fileWithRowOf(int chars) {
        String start = "R-2,FF100,12345679,";
        String text = "ref_id,product_sku,customer_no,note\nR-1,FF100,12345678,short\n" + start + "n".repeat(chars - start.length())
                + "\nR-3,ML86,123456789 (2345),after the long row\n";
        return text.getBytes(StandardCharsets.UTF_8);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** Plans a file and checks what every plan must be ({@link InProcessPlan#problems}); returns the outcome. */
    static InProcessPlan.Outcome planClean(String name, byte[] bytes) throws IOException {
        Path file = write(name, bytes);
        InProcessPlan.Snapshot before = InProcessPlan.Snapshot.of(file);
        InProcessPlan.Outcome o = plan.plan(file);
        assertThat(InProcessPlan.problems(o, file, before)).as(InProcessPlan.shown(o.all())).isEmpty();
        return o;
    }

    /** The line of the plan that names the encoding and the delimiter read ({@code Read as:  windows-1252, delimiter ';'}). */
    static String encodingLine(InProcessPlan.Outcome o) {
        return o.out().lines().filter(l -> l.startsWith("Read as:")).findFirst()
                .orElseThrow(() -> new AssertionError("plan names no encoding:\n" + o.out()));
    }

    static Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    static byte[] withBom(String text, Charset charset) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("\uFEFF" + text).getBytes(charset));
        return out.toByteArray();
    }
}
