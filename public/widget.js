/*! Agent chat bubble (issue 14). <script src="{base}/widget.js" data-agent-id="…" async></script>
 * Adds a launcher button and a chat panel: the agent's public chat (/chat/{id}) in an iframe, inside a shadow root,
 * so that neither the page's styles nor the chat's leak into each other. API: window.AgentChat.open(), .close(),
 * .toggle(), .identify({ visitorId, signature, expires }); events "agentchat:ready" and "agentchat:error" on window.
 * A signed identity may also be given as data-visitor-id, data-visitor-signature, data-visitor-expires. */
(function () {
  'use strict'
  var script = document.currentScript || document.querySelector('script[data-agent-id][src*="widget.js"]')
  if (!script || (window.AgentChat && window.AgentChat.agentId)) return
  var agentId = script.getAttribute('data-agent-id') || ''
  var base = new URL(script.src, location.href).origin
  var openKey = 'agent-chat-open:' + agentId
  var host, root, launcher, panel, frame, agent
  var isOpen = false
  var ready = false
  var identity = null
  var attr = function (n) { return script.getAttribute('data-visitor-' + n) }
  if (attr('id') && attr('signature') && attr('expires')) {
    identity = { visitorId: attr('id'), signature: attr('signature'), expires: Number(attr('expires')) }
  }

  var api = (window.AgentChat = {
    agentId: agentId,
    status: 'loading',
    open: function () { setOpen(true) },
    close: function () { setOpen(false) },
    toggle: function () { setOpen(!isOpen) },
    isOpen: function () { return isOpen },
    identify: function (id) {
      identity = id && id.visitorId ? { visitorId: String(id.visitorId), signature: String(id.signature), expires: Number(id.expires) } : null
      sendIdentity()
    },
  })

  function emit(name, detail) {
    window.dispatchEvent(new CustomEvent(name, { detail: detail }))
  }

  function fail(status, message) {
    api.status = status
    console.error('[agent chat] ' + message)
    emit('agentchat:error', { status: status, message: message })
  }

  function post(message) {
    if (frame && frame.contentWindow) frame.contentWindow.postMessage(message, base)
  }

  function sendIdentity() {
    if (!ready) return
    post(identity ? { type: 'agent-chat:identify', visitorId: identity.visitorId, signature: identity.signature, expires: identity.expires } : { type: 'agent-chat:anonymous' })
  }

  // a readable text colour on the primary colour (WCAG contrast against white and black)
  function textOn(hex) {
    var l = [1, 3, 5].map(function (i) {
      var c = parseInt(hex.slice(i, i + 2), 16) / 255
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4)
    })
    var lum = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
    return (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? '#0a0a0a' : '#ffffff'
  }

  var ICON_CHAT = '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>'
  var ICON_CLOSE = '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>'

  function css(a) {
    var side = a.bubblePosition === 'bottom-left' ? 'left' : 'right'
    var bg = a.colorScheme === 'dark' ? '#09090b' : '#ffffff'
    return ':host{all:initial}' +
      '.launcher{position:fixed;bottom:20px;' + side + ':20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;cursor:pointer;display:flex;align-items:center;justify-content:center;' +
      'background:' + a.primaryColor + ';color:' + textOn(a.primaryColor) + ';box-shadow:0 4px 14px rgba(0,0,0,.25);transition:transform .15s}' +
      '.launcher:hover{transform:scale(1.05)}.launcher:focus-visible{outline:3px solid ' + a.primaryColor + ';outline-offset:3px}' +
      '.panel{position:fixed;bottom:88px;' + side + ':20px;z-index:2147483000;width:380px;height:min(640px,calc(100vh - 120px));border-radius:16px;overflow:hidden;' +
      'background:' + bg + ';box-shadow:0 12px 40px rgba(0,0,0,.3);display:none}' +
      '.panel.open{display:block}iframe{border:0;width:100%;height:100%;display:block;color-scheme:normal}' +
      '@media (max-width:480px){.panel{inset:0;width:100%;height:100%;border-radius:0}.launcher.open{display:none}}' +
      '@media (prefers-reduced-motion:reduce){.launcher{transition:none}}'
  }

  function mount(a) {
    agent = a
    var appearance = a.appearance
    var name = appearance.displayName || a.name
    host = document.createElement('div')
    host.setAttribute('data-agent-chat', agentId)
    root = host.attachShadow({ mode: 'open' })
    var style = document.createElement('style')
    style.textContent = css(appearance)
    panel = document.createElement('div')
    panel.className = 'panel'
    panel.id = 'agent-chat-panel'
    panel.setAttribute('role', 'dialog')
    panel.setAttribute('aria-label', 'Chat with ' + name)
    launcher = document.createElement('button')
    launcher.type = 'button'
    launcher.className = 'launcher'
    launcher.setAttribute('aria-controls', panel.id)
    root.append(style, panel, launcher)
    launcher.addEventListener('click', api.toggle)
    ;(document.body || document.documentElement).appendChild(host)
    api.status = 'ready'
    render()
    emit('agentchat:ready', { agentId: agentId })
    try {
      if (sessionStorage.getItem(openKey) === '1') setOpen(true, true)
    } catch (e) {}
  }

  function render() {
    var name = agent.appearance.displayName || agent.name
    launcher.innerHTML = isOpen ? ICON_CLOSE : ICON_CHAT
    launcher.setAttribute('aria-label', (isOpen ? 'Close the chat with ' : 'Open the chat with ') + name)
    launcher.setAttribute('aria-expanded', String(isOpen))
    launcher.classList.toggle('open', isOpen)
    panel.classList.toggle('open', isOpen)
  }

  function ensureFrame() {
    if (frame) return
    frame = document.createElement('iframe')
    frame.src = base + '/chat/' + encodeURIComponent(agentId) + '?embed=1'
    frame.title = 'Chat with ' + (agent.appearance.displayName || agent.name)
    frame.allow = 'clipboard-write'
    panel.appendChild(frame)
  }

  function setOpen(open, restoring) {
    if (!agent || open === isOpen) return
    isOpen = open
    if (open) ensureFrame()
    render()
    try {
      sessionStorage.setItem(openKey, open ? '1' : '0')
    } catch (e) {}
    if (open && !restoring) {
      frame.focus()
      post({ type: 'agent-chat:focus' })
    } else if (!open && root.activeElement !== launcher && (!document.activeElement || document.activeElement === host || document.activeElement === document.body)) {
      launcher.focus()
    }
  }

  window.addEventListener('message', function (event) {
    if (!frame || event.source !== frame.contentWindow || event.origin !== base) return
    var type = event.data && event.data.type
    if (type === 'agent-chat:ready') {
      ready = true
      sendIdentity()
      if (isOpen) post({ type: 'agent-chat:focus' })
    } else if (type === 'agent-chat:close') {
      setOpen(false)
      launcher.focus()
    }
  })

  // Escape on the launcher closes the panel (inside the chat, the chat asks for it); the page's own Escape is its own
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && isOpen && document.activeElement === host) {
      setOpen(false)
      launcher.focus()
    }
  })

  fetch(base + '/api/agents/' + encodeURIComponent(agentId), { credentials: 'omit' })
    .then(function (res) {
      return res.json().then(function (body) {
        if (res.ok && body.visibility === 'public') return mount(body)
        var error = (body && body.error) || {}
        if (error.code === 'origin_not_allowed') fail('refused', error.message)
        else fail('unavailable', 'Agent ' + agentId + ' is not available (' + (error.message || 'status ' + res.status) + ')')
      })
    })
    .catch(function (error) {
      fail('unavailable', 'Could not reach ' + base + ': ' + error)
    })
})()
