/**
 * In-page code sent with every browser tool call. The guard runs first, in the same
 * `Runtime.callFunctionOn`, so a call costs one round trip: it checks the page's URL against the
 * domain patterns (the rules of `urlMatchesDomains`) and only then calls the tool. On a mismatch it
 * returns `{ [nonce]: location.href }` instead. It reads only `location`, whose members pages
 * cannot replace, and compares characters: no String or Array method, which a page can replace,
 * in any branch (a `blob:` document is decided by the characters of `location.origin`). It is
 * strict, so page code it calls cannot reach its arguments through `caller`.
 *
 * Around the tool it calls the binding `global[bindingName]` with `"s" + id` (started), and with
 * `"y" + id` (its synchronous part is over) only when the tool's promise is still pending once the
 * microtasks it queued at once have run, still in the call's own task: a tool that settles there
 * costs one signal, since its answer follows in that task. Node terminates only a tool that is
 * running. A page that replaces the binding (or, in the main world, the promise machinery) can
 * only change how its own tools and scripts are stopped.
 *
 * With `activation` set (Node sent no user gesture with this call, having sent one lately), a
 * page the patterns match but without transient user activation (a tool or the page consumed it,
 * or it lapsed) answers `{ [nonce]: 0 }` before anything runs: Node sends the call again with a
 * user gesture. Every tool starts with transient activation, as when each call carried a gesture.
 *
 * With `urls` (see urls.ts) Node has checked the page's path first, on whatever host, and always
 * sends it as `pathname`: the guard refuses too when `location.pathname` is no longer that one (the
 * tab navigated in between), so host and path are checked in the step that calls the tool.
 *
 * Arguments of the sent function: `[args, patterns, nonce, bindingName, id, activation, pathname?]`,
 * the global object, the tool. The guard runs on every call, also of a tool's cached function
 * (see CACHED_START).
 */
export const DOMAIN_GUARD = [
  'function(a,g,t){"use strict";var l=location,p=l.protocol,h=l.hostname,d=a[1],b=0,n=h.length,k=0,j,m,o,s,r,c;',
  'if(p=="blob:"){h=l.origin;for(p="";h[b]&&h[b]!=":";)p+=h[b++];p+=":";b+=3;for(n=h.length;',
  'h[n-1]>="0"&&h[n-1]<="9";)n--;if(h[n-1]==":")n--;else n=h.length}if(h[n-1]==".")n--;',
  'if(p!="http:"&&p!="https:")n=b;for(j=b;j<n;j++)if(h[j]=="."&&(j==b||j==n-1||h[j+1]=="."))n=b;',
  'n-=b;for(;k<d.length;k++){s=d[k];o=s[0]=="*"?1:0;m=s.length-o;if(o?n>m&&h[b]!="[":n==m){for(j=0;',
  'j<m&&h[b+n-m+j]==s[o+j];j++);if(j==m){if(a[5])try{o=navigator.userActivation;if(o&&!o.isActive){',
  'r={};r[a[2]]=0;return r}}catch(e){}s=a[6];if(s!=null){o=l.pathname;for(j=0;j<s.length&&o[j]===s[j];j++);',
  'if(j!=s.length||o.length!=s.length)break}s=g[a[3]];r=a[4];if(s)try{s("s"+r)}catch(e){}o=t(a[0]);c=0;',
  '(async function(){try{await o}catch(e){}c=1})();(async function(){for(j=0;j<4;j++)await 0;',
  'if(!c&&s)try{s("y"+r)}catch(e){}})();return o}}}r={};r[a[2]]=l.href;return r}',
].join('')

/**
 * What the guard calls in place of the tool: the tool, then a look at its result (awaited when it
 * is a promise; a value stays a value, a throw stays a throw). A result that refers back to an
 * object that contains it is answered `{ [nonce]: [path] }` (`result.list[1]`): CDP would only say
 * "Object reference chain is too long", once the value is gone. The walk reads own enumerable data
 * members (no getter runs), at most 100,000 values, 1,000 levels deep (CDP's own limit): past that
 * it gives up and CDP's words stand. Arguments: the nonce, the tool.
 */
const RESULT_CHECK = [
  'function(t,f){"use strict";function k(v){var s,n=0,p,r;function w(x,d){var e,i,c,u;',
  'if(x===null||typeof x!="object")return;if(s.has(x))return"";if(d>1e3||++n>1e5)return;s.add(x);',
  'try{e=Object.keys(x);for(i=0;i<e.length;i++){c=Object.getOwnPropertyDescriptor(x,e[i]);',
  'if(c&&"value"in c){u=w(c.value,d+1);if(u!=null)return(Array.isArray(x)?"["+e[i]+"]":"."+e[i])+u}}}',
  'finally{s.delete(x)}}if(v!==null&&typeof v=="object")try{s=new Set;p=w(v,0);',
  'if(p!=null){r={};r[t]=["result"+p];return r}}catch(e){}return v}',
  'return function(x){var o=f(x);return o instanceof Promise?(async function(){return k(await o)})():k(o)}}',
].join('')

/**
 * Everything before the tool's own source, on its first line. The wrapper declares no names, so
 * the tool's free identifiers still reach the page's globals.
 */
const WRAP_START = `function(){return(${DOMAIN_GUARD})(arguments,this,(${RESULT_CHECK})(arguments[2],`

/** V8 compiles a `callFunctionOn` declaration as `(` + declaration + `)`: one extra column on line 0. */
export const LINE0_SHIFT = WRAP_START.length + 1

/**
 * The start of the declaration that makes a tool's cached function in a page context: called on
 * the world's global object, it returns a function that runs the guard, then the tool, with that
 * global. The tool is evaluated once, where the wrapper declares no names (as above).
 */
const CACHED_START = `function(){return(function(g,t){return function(){return(${DOMAIN_GUARD})(arguments,g,(${RESULT_CHECK})(arguments[2],t))}})(this,`

/** LINE0_SHIFT of a cached function's script. */
export const CACHED_LINE0_SHIFT = CACHED_START.length + 1

/**
 * Every later call of a cached function: called on it (`this`), directly, so that no method a page
 * can replace (`call`, `apply`) comes between; strict, so that nothing it calls reaches its arguments.
 */
export const CALL_CACHED = 'function(a,b,c,d,e,f,h){"use strict";return this(a,b,c,d,e,f,h)}'

/** Lone surrogates have no UTF-8 form (`encodeURIComponent` throws on them): U+FFFD stands in. */
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
/** What `encodeURIComponent` leaves that V8 would not take in a sourceURL (quotes) or that is not plain. */
const URI_EXTRA_RE = /[!'()*]/g
/** Anything but printable ASCII other than quotes: a sourceURL is one token of those. */
const NOT_URL_TOKEN_RE = /[^\x21\x23-\x26\x28-\x7E]/gu

const percent = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`

/** One segment of a tool's URL: its UTF-8 bytes percent-encoded but for letters, digits and `-._~`. */
function urlSegment(name: string): string {
  return encodeURIComponent(name.replace(LONE_SURROGATE_RE, '\uFFFD')).replace(URI_EXTRA_RE, percent)
}

/**
 * The URL stack traces show for a tool: `site-skills://<siteId>/<tool>.js`, each name
 * percent-encoded, so the URL is one token of printable ASCII whatever the names hold.
 */
export function toolUrl(siteId: string, tool: string): string {
  return `site-skills://${urlSegment(siteId)}/${urlSegment(tool)}.js`
}

/**
 * The function declaration for `Runtime.callFunctionOn`. Lines of `source` keep their numbers;
 * the sourceURL comment needs a line break after it, or it would swallow V8's closing `)`. The URL
 * goes into a `//` comment: any character that could end the comment (a line or paragraph
 * separator, a newline) or that V8 would not read as part of the URL is percent-encoded here too,
 * so a URL made elsewhere can never put code after the comment.
 */
export function wrapToolSource(source: string, url: string, cached = false): string {
  const token = url
    .replace(LONE_SURROGATE_RE, '\uFFFD')
    .replace(NOT_URL_TOKEN_RE, (c) => encodeURIComponent(c).replace(URI_EXTRA_RE, percent))
  return `${cached ? CACHED_START : WRAP_START}${source}${cached ? ')' : '))'}}\n//# sourceURL=${token}\n`
}
