/*
 * The page's only script tag (issue 10: first load on a phone). The HTML already shows the first
 * screen, rendered on the server (engine/ssr.tsx); the app's entry module is asked
 * for only once that screen is on the glass: its prominent images (fetchpriority="high", the
 * lobby's first game cards) loaded, or failed, and a frame painted. So on a slow network the
 * screen a punter sees never waits behind ~110 KB of script, and the script never competes with
 * those images for the connection. Links in the server's markup are real <a href> navigations,
 * so a tap before the script has arrived still works.
 *
 * Plain script (no module, no import) so it runs as soon as it arrives; added to the build by
 * vite.config.ts (`startAfterPaint`), which moves the entry's <script type="module"> and its
 * module preloads here: `data-entry` and `data-preload` (comma-separated). The server adds the
 * route's lazy chunks (a form) to `data-preload` (server/http/boot.ts).
 */
;(function () {
  // A form the server rendered is plain HTML until the app has loaded its script: a submit then
  // would send it as an HTML form (a GET with the password in the address). It is held instead and
  // made again once the form is live; a touch, key or focus in it is noted, so the app loads the
  // form's script at once (engine/renderers/nodes/FormNode.tsx, which takes over these listeners).
  var uses = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'submit']
  for (var u = 0; u < uses.length; u++)
    document.addEventListener(
      uses[u],
      function (event) {
        var host = event.target && event.target.closest && event.target.closest('[data-form-pending]')
        if (!host) return
        host.setAttribute('data-form-used', '')
        if (event.type !== 'submit') return
        event.preventDefault()
        host.setAttribute('data-form-held', '')
      },
      true,
    )

  var me = document.currentScript
  var entry = me && me.getAttribute('data-entry')
  if (!entry) return
  var preload = (me.getAttribute('data-preload') || '').split(',').filter(Boolean)
  // an image that never arrives never holds the app back longer than this
  var IMAGE_WAIT_MS = 3000
  var started = false

  function add(attributes) {
    var element = document.createElement(attributes.tag)
    for (var name in attributes) if (name !== 'tag') element.setAttribute(name, attributes[name])
    document.head.appendChild(element)
  }

  function start() {
    if (started) return
    started = true
    for (var i = 0; i < preload.length; i++) add({ tag: 'link', rel: 'modulepreload', crossorigin: '', href: preload[i] })
    add({ tag: 'script', type: 'module', crossorigin: '', src: entry })
  }

  // once the browser has recorded the first contentful paint (its own paint timing entry, which
  // exists only after the frame was presented), then two frames later: a frame callback alone runs
  // before its frame is shown, and an entry asked for between the frame and its presentation was
  // still on the first paint's path (lobby and sport at 1.9–2.2 s LCP in a third of the loads,
  // 1.1–1.3 s in the rest). Without paint timing: two frames.
  function afterPaint() {
    whenPainted(function () {
      requestAnimationFrame(function () {
        requestAnimationFrame(function () {
          setTimeout(start, 0)
        })
      })
    })
  }

  function whenPainted(then) {
    var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes
    if (!types || types.indexOf('paint') < 0) return then()
    var done = false
    var observer = new PerformanceObserver(function (list) {
      if (done || !list.getEntriesByName('first-contentful-paint').length) return
      done = true
      observer.disconnect()
      then()
    })
    observer.observe({ type: 'paint', buffered: true })
  }

  function whenImagesSettled() {
    var images = document.querySelectorAll('#root img[fetchpriority="high"]')
    var waiting = 0
    var settle = function () {
      waiting--
      if (waiting === 0) afterPaint()
    }
    // decoded, not only loaded: a card image (decoding="async") can paint a frame or more after
    // its load event, and an entry that arrived before that paint was on the LCP path again
    // (2 of 3 lobby runs at 2.2 s instead of 1.2 s in one measurement); decode() answers in a
    // later task, so the count is complete before any image settles
    for (var i = 0; i < images.length; i++) {
      var image = images[i]
      if (image.decode) {
        waiting++
        image.decode().then(settle, settle)
      } else if (!image.complete) {
        waiting++
        image.addEventListener('load', settle, { once: true })
        image.addEventListener('error', settle, { once: true })
      }
    }
    if (waiting === 0) afterPaint()
    setTimeout(start, IMAGE_WAIT_MS)
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', whenImagesSettled, { once: true })
  else whenImagesSettled()
})()
