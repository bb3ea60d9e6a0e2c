/**
 * The pages' one script, served from /assets/near-me.js (the CSP refuses inline script): it shows
 * each "Use my location" button where the browser has geolocation and, when pressed, fills the
 * button's field with "lat,lng". Without it the field is typed by hand and the form works alike.
 */
export const NEAR_ME_SCRIPT = `"use strict";
document.addEventListener("DOMContentLoaded", function () {
  if (!("geolocation" in navigator)) return;
  document.querySelectorAll("button[data-near-target]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-near-target"));
    var status = document.getElementById(button.getAttribute("data-near-status"));
    if (!field || !status) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      status.textContent = "Finding your location…";
      navigator.geolocation.getCurrentPosition(
        function (position) {
          field.value = position.coords.latitude.toFixed(5) + "," + position.coords.longitude.toFixed(5);
          status.textContent = "Your location is filled in.";
        },
        function () {
          status.textContent = "Your location is not available; type it as latitude,longitude.";
        },
        { timeout: 15000, maximumAge: 300000 }
      );
    });
  });
});
`;
