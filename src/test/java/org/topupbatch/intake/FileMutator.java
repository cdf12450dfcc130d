package org.topupbatch.intake;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Damages a batch file the ways files get damaged: bytes flipped, inserted or lost, lines repeated,
 * lost or swapped, the file cut short, control characters and terminal escape sequences, byte-order
 * marks and NULs where they do not belong, invalid UTF-8, huge fields, other line ends, other
 * delimiters, blank lines and empty rows above the header. Seeded: the same seed gives the same file.
 */
public final class FileMutator {

    /** The kinds of damage, each chosen with the same chance. */
    enum Kind {
        FLIP_BIT, RANDOM_BYTE, INSERT_BYTES, DELETE_BYTES, DUPLICATE_LINE, DELETE_LINE, SWAP_LINES, CUT, CONTROL,
        ESCAPE_SEQUENCE, BOM, NUL, INVALID_UTF8, UNICODE_BREAK, QUOTE, HUGE_FIELD, LINE_ENDS, DELIMITERS, ABOVE_HEADER
    }

    private static final byte[][] ESCAPES = {
            bytes("\u001B[2J"), bytes("\u001B[31mred\u001B[0m"), bytes("\u001B]0;title\u0007"), bytes("\u001B[1A\u001B[K"),
            {(byte) 0xC2, (byte) 0x9B, '2', 'J'}, // C1 CSI, U+009B, in UTF-8
            {0x1B, 'c'},
    };
    private static final byte[][] BOMS = {
            {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {(byte) 0xFF, (byte) 0xFE}, {(byte) 0xFE, (byte) 0xFF},
            {(byte) 0xFF, (byte) 0xFE, 0, 0},
    };
    private static final byte[][] INVALID_UTF8 = {
            {(byte) 0x80}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xE9, 'x'},
    };
    private static final byte[][] UNICODE_BREAKS = {
            {(byte) 0xE2, (byte) 0x80, (byte) 0xA8}, {(byte) 0xE2, (byte) 0x80, (byte) 0xA9}, {(byte) 0xC2, (byte) 0x85},
            {(byte) 0xC2, (byte) 0xA0}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
    };
    /** Lengths of an inserted field: under and over the 64 Ki row limit; rarely over the old 1 MiB record limit. */
    private static final int[] HUGE = {3_000, 30_000, 70_000, 70_000, 200_000, 1_100_000};

    private final Random random;
    private final List<String> done = new ArrayList<>();

    public FileMutator(long seed) {
        this.random = new Random(seed);
    }

    /** What was done, e.g. {@code [flip@12^0x04, cut@301]}. */
    public List<String> done() {
        return done;
    }

    /** One to three kinds of damage, each at a random place. */
    public byte[] mutate(byte[] seed) {
        byte[] file = seed;
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            file = apply(Kind.values()[random.nextInt(Kind.values().length)], file);
        }
        return file;
    }

    byte[] apply(Kind kind, byte[] f) {
        int at = f.length == 0 ? 0 : random.nextInt(f.length + 1);
        switch (kind) {
            case FLIP_BIT -> {
                if (f.length == 0) {
                    return f;
                }
                int pos = random.nextInt(f.length);
                int bit = 1 << random.nextInt(8);
                byte[] out = f.clone();
                out[pos] ^= (byte) bit;
                done.add("flip@" + pos + "^0x" + Integer.toHexString(bit));
                return out;
            }
            case RANDOM_BYTE -> {
                if (f.length == 0) {
                    return f;
                }
                int pos = random.nextInt(f.length);
                byte[] out = f.clone();
                out[pos] = (byte) random.nextInt(256);
                done.add("byte@" + pos + "=0x" + Integer.toHexString(out[pos] & 0xFF));
                return out;
            }
            case INSERT_BYTES -> {
                byte[] ins = new byte[1 + random.nextInt(8)];
                random.nextBytes(ins);
                done.add("insert" + ins.length + "@" + at);
                return insert(f, at, ins);
            }
            case DELETE_BYTES -> {
                int n = Math.min(f.length - Math.min(at, f.length), 1 + random.nextInt(32));
                done.add("delete" + n + "@" + at);
                return delete(f, at, n);
            }
            case DUPLICATE_LINE, DELETE_LINE, SWAP_LINES -> {
                List<byte[]> lines = lines(f);
                if (lines.isEmpty()) {
                    return f;
                }
                int a = random.nextInt(lines.size());
                int b = random.nextInt(lines.size());
                if (kind == Kind.DUPLICATE_LINE) {
                    lines.add(b, lines.get(a));
                    done.add("dup-line" + (a + 1) + "->" + (b + 1));
                } else if (kind == Kind.DELETE_LINE) {
                    lines.remove(a);
                    done.add("del-line" + (a + 1));
                } else {
                    byte[] t = lines.get(a);
                    lines.set(a, lines.get(b));
                    lines.set(b, t);
                    done.add("swap-lines" + (a + 1) + "," + (b + 1));
                }
                return join(lines);
            }
            case CUT -> {
                done.add("cut@" + at);
                return Arrays.copyOf(f, Math.min(at, f.length));
            }
            case CONTROL -> {
                int c = random.nextInt(33);
                byte b = (byte) (c == 32 ? 0x7F : c);
                done.add("control0x" + Integer.toHexString(b & 0xFF) + "@" + at);
                return insert(f, at, new byte[]{b});
            }
            case ESCAPE_SEQUENCE -> {
                int i = random.nextInt(ESCAPES.length);
                done.add("esc" + i + "@" + at);
                return insert(f, at, ESCAPES[i]);
            }
            case BOM -> {
                int i = random.nextInt(BOMS.length);
                int pos = random.nextBoolean() ? 0 : at;
                done.add("bom" + i + "@" + pos);
                return insert(f, pos, BOMS[i]);
            }
            case NUL -> {
                int n = random.nextBoolean() ? 1 : 1 + random.nextInt(64);
                done.add("nul" + n + "@" + at);
                return insert(f, at, new byte[n]);
            }
            case INVALID_UTF8 -> {
                int i = random.nextInt(INVALID_UTF8.length);
                done.add("bad-utf8-" + i + "@" + at);
                return insert(f, at, INVALID_UTF8[i]);
            }
            case UNICODE_BREAK -> {
                int i = random.nextInt(UNICODE_BREAKS.length);
                done.add("unicode" + i + "@" + at);
                return insert(f, at, UNICODE_BREAKS[i]);
            }
            case QUOTE -> {
                done.add("quote@" + at);
                return insert(f, at, new byte[]{'"'});
            }
            case HUGE_FIELD -> {
                int n = HUGE[random.nextInt(HUGE.length)];
                byte[] field = new byte[n];
                Arrays.fill(field, (byte) ('A' + random.nextInt(26)));
                if (random.nextBoolean()) {
                    field[0] = '"';
                    field[n - 1] = '"';
                }
                done.add("huge" + n + "@" + at);
                return insert(f, at, field);
            }
            case LINE_ENDS -> {
                String[] ends = {"\n", "\r\n", "\r", "mixed"};
                String to = ends[random.nextInt(ends.length)];
                done.add("line-ends->" + to.replace("\r", "CR").replace("\n", "LF"));
                List<byte[]> lines = lines(f);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (byte[] line : lines) {
                    int end = line.length;
                    while (end > 0 && (line[end - 1] == '\n' || line[end - 1] == '\r')) {
                        end--;
                    }
                    out.write(line, 0, end);
                    if (end < line.length) {
                        out.writeBytes(bytes(to.equals("mixed") ? ends[random.nextInt(3)] : to));
                    }
                }
                return out.toByteArray();
            }
            case DELIMITERS -> {
                byte[][] swaps = {{',', ';'}, {';', ','}, {',', '\t'}, {';', '\t'}, {',', '|'}};
                byte[] swap = swaps[random.nextInt(swaps.length)];
                boolean headerOnly = random.nextBoolean();
                done.add("delim" + (char) swap[0] + "->" + (swap[1] == '\t' ? "TAB" : String.valueOf((char) swap[1]))
                        + (headerOnly ? "-header" : ""));
                byte[] out = f.clone();
                for (int i = 0; i < out.length; i++) {
                    if (headerOnly && (out[i] == '\n' || out[i] == '\r')) {
                        break;
                    }
                    if (out[i] == swap[0]) {
                        out[i] = swap[1];
                    }
                }
                return out;
            }
            case ABOVE_HEADER -> {
                String[] lines = {"\n", "\r\n", ";;;;;;;\n", ",,,,\r\n", " \t \n", "\"\"\n", ";,;,\n"};
                String line = lines[random.nextInt(lines.length)];
                int n = random.nextInt(10) == 0 ? 66_000 : 1 + random.nextInt(5);
                done.add("above" + n + "x" + line.replace("\r", "CR").replace("\n", "LF").replace("\t", "TAB"));
                return insert(f, 0, bytes(line.repeat(n)));
            }
            default -> throw new IllegalStateException(kind.toString());
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] insert(byte[] f, int at, byte[] ins) {
        int pos = Math.min(at, f.length);
        byte[] out = new byte[f.length + ins.length];
        System.arraycopy(f, 0, out, 0, pos);
        System.arraycopy(ins, 0, out, pos, ins.length);
        System.arraycopy(f, pos, out, pos + ins.length, f.length - pos);
        return out;
    }

    static byte[] delete(byte[] f, int at, int n) {
        int pos = Math.min(at, f.length);
        int len = Math.max(0, Math.min(n, f.length - pos));
        byte[] out = new byte[f.length - len];
        System.arraycopy(f, 0, out, 0, pos);
        System.arraycopy(f, pos + len, out, pos, f.length - pos - len);
        return out;
    }

    /** Lines with their ends (LF, CRLF or CR); the last one may have none. */
    static List<byte[]> lines(byte[] f) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < f.length; i++) {
            if (f[i] == '\n' || f[i] == '\r') {
                int end = f[i] == '\r' && i + 1 < f.length && f[i + 1] == '\n' ? i + 2 : i + 1;
                lines.add(Arrays.copyOfRange(f, start, end));
                start = end;
                i = end - 1;
            }
        }
        if (start < f.length) {
            lines.add(Arrays.copyOfRange(f, start, f.length));
        }
        return lines;
    }

    static byte[] join(List<byte[]> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        lines.forEach(out::writeBytes);
        return out.toByteArray();
    }
}
