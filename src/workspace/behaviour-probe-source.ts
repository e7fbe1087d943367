/**
 * The Java side of the behavioural probe (behaviour-probe.ts): a small program, compiled
 * once per machine and kept in mvnx's cache, that loads the original classes and the
 * patched classes each in a class loader of its own (the platform loader as parent, so
 * neither sees the other nor the test classes), calls the same methods with the same
 * arguments on both, and prints every answer. Each call is made twice on the same receiver
 * (a fixed answer must not change when asked again), then once more in reverse order on a
 * fresh receiver. What the probed code prints is swallowed; a call that does not return
 * within the budget ends the run (its thread cannot be stopped).
 *
 * Spec file, tab-separated lines: `budget <ms>`, `side <name> <class path>`,
 * `method <class> <name> <static|instance> <type,type...>`, `call <method index> <arg>...`
 * (args `n:12`, `s:text`, `c:x`, `b:true`, `e:CONSTANT`, `null`; tabs, newlines and backslashes escaped;
 * a parameter type `enum:<binary name>` is that enum of the side's own classes).
 * Output: `r <call> <side> <first>\t<again>\t<reversed>` per call, `end <complete|budget|timeout>`.
 */
export const PROBE_CLASS_NAME = 'mvnx.BehaviourProbe';

export const PROBE_SOURCE = `package mvnx;

import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Written by mvnx into its workspace copy only: original and patched code called on the same inputs. */
public final class BehaviourProbe {
    private static final class Target { String cls; String name; boolean isStatic; String[] types; }
    private static final class Call { int method; String[] args; }

    public static void main(String[] argv) throws Exception {
        final PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        PrintStream sink = new PrintStream(new OutputStream() { public void write(int b) { } });
        System.setOut(sink);
        System.setErr(sink);
        long budget = 10000;
        Map<String, String> sides = new LinkedHashMap<String, String>();
        List<Target> targets = new ArrayList<Target>();
        List<Call> calls = new ArrayList<Call>();
        for (String line : Files.readAllLines(Paths.get(argv[0]), StandardCharsets.UTF_8)) {
            String[] f = line.split("\\t", -1);
            if (f[0].equals("budget")) budget = Long.parseLong(f[1]);
            else if (f[0].equals("side")) sides.put(f[1], f[2]);
            else if (f[0].equals("method")) {
                Target t = new Target();
                t.cls = f[1]; t.name = f[2]; t.isStatic = f[3].equals("static");
                t.types = f[4].isEmpty() ? new String[0] : f[4].split(",");
                targets.add(t);
            } else if (f[0].equals("call")) {
                Call c = new Call();
                c.method = Integer.parseInt(f[1]);
                c.args = Arrays.copyOfRange(f, 2, f.length);
                calls.add(c);
            }
        }
        final long deadline = System.currentTimeMillis() + budget;
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> { Thread t = new Thread(r); t.setDaemon(true); return t; });
        String end = "complete";
        outer:
        for (Map.Entry<String, String> side : sides.entrySet()) {
            String[] entries = side.getValue().isEmpty() ? new String[0] : side.getValue().split(File.pathSeparator);
            URL[] urls = new URL[entries.length];
            for (int i = 0; i < entries.length; i++) urls[i] = new File(entries[i]).toURI().toURL();
            final ClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
            String[][] answers = new String[calls.size()][3];
            for (int pass = 0; pass < 2; pass++) {
                for (int k = 0; k < calls.size(); k++) {
                    int i = pass == 0 ? k : calls.size() - 1 - k;
                    final Call call = calls.get(i);
                    final Target target = targets.get(call.method);
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0) { end = "budget"; break outer; }
                    final int times = pass == 0 ? 2 : 1;
                    Future<String[]> done = worker.submit(() -> invoke(loader, target, call, times));
                    String[] got;
                    try {
                        got = done.get(left, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException e) {
                        end = "timeout"; break outer;
                    }
                    if (pass == 0) { answers[i][0] = got[0]; answers[i][1] = got[1]; } else answers[i][2] = got[0];
                }
            }
            for (int i = 0; i < calls.size(); i++)
                out.println("r\\t" + i + "\\t" + side.getKey() + "\\t" + answers[i][0] + "\\t" + answers[i][1] + "\\t" + answers[i][2]);
        }
        out.println("end\\t" + end);
        out.flush();
        System.exit(0);
    }

    private static String[] invoke(ClassLoader loader, Target target, Call call, int times) {
        String[] got = new String[times];
        Object receiver = null;
        Method method;
        Object[] args = new Object[target.types.length];
        try {
            Class<?> cls = Class.forName(target.cls, true, loader);
            Class<?>[] types = new Class<?>[target.types.length];
            for (int i = 0; i < types.length; i++) types[i] = typeOf(target.types[i], loader);
            method = cls.getDeclaredMethod(target.name, types);
            method.setAccessible(true);
            if (Modifier.isStatic(method.getModifiers()) != target.isStatic) throw new NoSuchMethodException("static");
            if (!target.isStatic) {
                Constructor<?> make = cls.getDeclaredConstructor();
                make.setAccessible(true);
                receiver = make.newInstance();
            }
            for (int i = 0; i < args.length; i++) args[i] = argument(types[i], call.args[i]);
        } catch (Throwable e) {
            Arrays.fill(got, "u:" + escape(e.getClass().getName() + ": " + e.getMessage()));
            return got;
        }
        for (int n = 0; n < times; n++) {
            try {
                got[n] = "v:" + escape(describe(method.invoke(receiver, args)));
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                got[n] = "x:" + escape(cause.getClass().getName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
            } catch (Throwable e) {
                got[n] = "u:" + escape(e.getClass().getName());
            }
        }
        return got;
    }

    private static Class<?> typeOf(String name, ClassLoader loader) throws ClassNotFoundException {
        // An enum of the code under test: each side's own class, from its own loader.
        if (name.startsWith("enum:")) return Class.forName(name.substring(5), false, loader);
        switch (name) {
            case "int": return int.class;
            case "long": return long.class;
            case "short": return short.class;
            case "byte": return byte.class;
            case "char": return char.class;
            case "boolean": return boolean.class;
            case "double": return double.class;
            case "float": return float.class;
            case "Integer": return Integer.class;
            case "Long": return Long.class;
            case "Short": return Short.class;
            case "Byte": return Byte.class;
            case "Character": return Character.class;
            case "Boolean": return Boolean.class;
            case "Double": return Double.class;
            case "Float": return Float.class;
            case "String": return String.class;
            case "CharSequence": return CharSequence.class;
            case "Object": return Object.class;
            default: throw new ClassNotFoundException(name);
        }
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static Object argument(Class<?> type, String value) {
        if (value.equals("null")) return null;
        String text = unescape(value.substring(2));
        if (type.isEnum()) return Enum.valueOf((Class) type, text);
        if (type == String.class || type == CharSequence.class || type == Object.class) return text;
        if (type == int.class || type == Integer.class) return Integer.valueOf((int) Long.parseLong(text));
        if (type == long.class || type == Long.class) return Long.valueOf(Long.parseLong(text));
        if (type == short.class || type == Short.class) return Short.valueOf((short) Long.parseLong(text));
        if (type == byte.class || type == Byte.class) return Byte.valueOf((byte) Long.parseLong(text));
        if (type == double.class || type == Double.class) return Double.valueOf(Double.parseDouble(text));
        if (type == float.class || type == Float.class) return Float.valueOf(Float.parseFloat(text));
        if (type == boolean.class || type == Boolean.class) return Boolean.valueOf(text);
        return Character.valueOf(text.isEmpty() ? ' ' : text.charAt(0));
    }

    private static String describe(Object value) {
        if (value == null) return "null";
        if (value.getClass().isArray()) {
            StringBuilder text = new StringBuilder("[");
            for (int i = 0; i < Array.getLength(value); i++) text.append(i > 0 ? ", " : "").append(describe(Array.get(value, i)));
            return text.append(']').toString();
        }
        try {
            if (value.getClass().getMethod("toString").getDeclaringClass() == Object.class) return "object of " + value.getClass().getName();
        } catch (NoSuchMethodException e) {
            return "object of " + value.getClass().getName();
        }
        return String.valueOf(value);
    }

    private static String escape(String text) {
        return text.replace("\\\\", "\\\\\\\\").replace("\\t", "\\\\t").replace("\\n", "\\\\n").replace("\\r", "\\\\r");
    }

    private static String unescape(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\\\' && i + 1 < text.length()) {
                char next = text.charAt(++i);
                out.append(next == 't' ? '\\t' : next == 'n' ? '\\n' : next == 'r' ? '\\r' : next);
            } else out.append(c);
        }
        return out.toString();
    }
}
`;
