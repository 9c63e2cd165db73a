/**
 * In-page code sent with every browser tool call. The guard runs first, in the same
 * `Runtime.callFunctionOn`, so a call costs one round trip: it checks the page's URL against the
 * domain patterns (the rules of `urlMatchesDomains`) and only then calls the tool. On a mismatch it
 * returns `{ [nonce]: location.href }` instead. It reads only `location`, whose members pages
 * cannot replace, and compares characters: no String or Array method, which a page can replace,
 * in any branch (a `blob:` document is decided by the characters of `location.origin`). It is
 * strict, so page code it calls cannot reach its arguments through `caller`.
 *
 * Around the tool it calls the binding `global[bindingName]` with `"s" + id` (started) and
 * `"y" + id` (its synchronous part is over): Node terminates only a tool that is running.
 * A page that replaces the binding can only keep its own tools from being stopped.
 *
 * Arguments of the sent function: `[args, patterns, nonce, bindingName, id]`, the global object, the tool.
 */
export const DOMAIN_GUARD = [
  'function(a,g,t){"use strict";var l=location,p=l.protocol,h=l.hostname,d=a[1],b=0,n=h.length,k=0,j,m,o,s,r;',
  'if(p=="blob:"){h=l.origin;for(p="";h[b]&&h[b]!=":";)p+=h[b++];p+=":";b+=3;for(n=h.length;',
  'h[n-1]>="0"&&h[n-1]<="9";)n--;if(h[n-1]==":")n--;else n=h.length}if(h[n-1]==".")n--;',
  'if(p!="http:"&&p!="https:")n=b;for(j=b;j<n;j++)if(h[j]=="."&&(j==b||j==n-1||h[j+1]=="."))n=b;',
  'n-=b;for(;k<d.length;k++){s=d[k];o=s[0]=="*"?1:0;m=s.length-o;if(o?n>m&&h[b]!="[":n==m){for(j=0;',
  'j<m&&h[b+n-m+j]==s[o+j];j++);if(j==m){s=g[a[3]];r=a[4];try{s("s"+r)}catch(e){}try{return t(a[0])}',
  'finally{try{s("y"+r)}catch(e){}}}}}r={};r[a[2]]=l.href;return r}',
].join('')

/**
 * Everything before the tool's own source, on its first line. The wrapper declares no names, so
 * the tool's free identifiers still reach the page's globals.
 */
const WRAP_START = `function(){return(${DOMAIN_GUARD})(arguments,this,`

/** V8 compiles a `callFunctionOn` declaration as `(` + declaration + `)`: one extra column on line 0. */
export const LINE0_SHIFT = WRAP_START.length + 1

/** The URL stack traces show for a tool. */
export function toolUrl(siteId: string, tool: string): string {
  return `site-skills://${siteId}/${tool}.js`
}

/**
 * The function declaration for `Runtime.callFunctionOn`. Lines of `source` keep their numbers;
 * the sourceURL comment needs a line break after it, or it would swallow V8's closing `)`.
 */
export function wrapToolSource(source: string, url: string): string {
  return `${WRAP_START}${source})}\n//# sourceURL=${url}\n`
}
